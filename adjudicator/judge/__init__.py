"""The judge: what a GM does to a campaign and its mail together.

Today: handing a seat to a new player (replace), which touches the campaign, its
ingested mail and its outbox in one locked step.
"""
