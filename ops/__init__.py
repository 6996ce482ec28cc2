"""What every app shares about running the site: the log context that tags each log
line with its request, task, game and move, and the answer given while a service the
site needs (PostgreSQL, Redis) is unreachable.  Below the apps: it imports none of them
and nothing of the project package."""
