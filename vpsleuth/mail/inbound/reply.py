"""What the player wrote in a reply: the quoted original and signatures removed.

The rules live on the pure floor (vpsleuth/orders/reply.py), so the board service
strips a mailed post as this pipeline strips a turn; this name stays for the
mail pipeline and its tests.
"""

from __future__ import annotations

from ...orders.reply import has_content, is_quoted, strip_reply

__all__ = ["has_content", "is_quoted", "strip_reply"]
