"""Inbound mail: one pipeline, three entrances (IMAP polling, MTA pipe, SMTP receiver)."""
