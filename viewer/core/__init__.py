"""What serves every game: the page builder (:mod:`.page`) and its assets."""
