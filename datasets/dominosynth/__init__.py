"""Synthetic overhead views of domino tables: layouts from the rules simulator, rendered with heavy randomisation."""
