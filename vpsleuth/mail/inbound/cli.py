"""``vpsleuth mail ingest`` and friends (commands added to mail_cli)."""
