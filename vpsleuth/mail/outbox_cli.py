"""``vpsleuth mail outbox`` and ``vpsleuth mail send`` (commands added to mail_cli)."""
