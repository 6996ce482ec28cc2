"""Users and their profiles; sign-up, log-in and e-mail through django-allauth."""
