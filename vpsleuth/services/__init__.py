"""Use cases that every entrance (CLI, web, mail, scheduler) calls."""
