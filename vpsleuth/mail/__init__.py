"""Mail: the outbox and notifications (outbound), the ingest pipeline (inbound)."""
