"""Services: plain async functions over the ports. No adapter is imported here."""
