"""The mail side: messages read from mail sources (inbox), orders filed from them (ingest),
messages built into the outbox (compose), and the outbox delivered over SMTP (deliver).
"""
