"""The mail side: messages read from mail sources (inbox), orders filed from them (ingest),
players' commands recognised (commands) and answered (answers), press relayed (press),
absences granted (absences), messages built into the outbox (compose), and the outbox
delivered over SMTP (deliver).
"""
