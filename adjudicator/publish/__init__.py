"""Publishing: the reports rendered from Jinja templates (render) and their BBCode copy for forums (bbcode).

Publishing renders views it is given; it never opens a campaign folder itself.
"""
