"""Maiko's part of the viewer: the whole state of a step, the rules a step applied, and the
drawing of the board (``board.js``)."""
