"""pbem-adjudicator: play-by-email order adjudication for hidden-identity games."""

__version__ = "0.1.0"
