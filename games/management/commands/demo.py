"""``manage.py demo``: the demo account of the quick start (README, first lines), and a
game for it against two medium bots, ready to play."""

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import User
from games.models import Game
from games.services import game_create

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-password-123"
DEMO_EMAIL = "demo@example.com"
DEMO_GAME_BOTS = [{"ai": "medium"}, {"ai": "medium"}]


def demo_user_ensure() -> User:
    """Create the demo user, or put it back as documented: known password, active,
    one verified primary e-mail address.  Running it again changes nothing else."""
    with transaction.atomic():
        user, _ = User.objects.get_or_create(
            username=DEMO_USERNAME,
            defaults={"email": DEMO_EMAIL, "display_name": "Demo Player"},
        )
        if not user.check_password(DEMO_PASSWORD) or not user.is_active or user.email != DEMO_EMAIL:
            user.set_password(DEMO_PASSWORD)
            user.is_active = True
            user.email = DEMO_EMAIL
            user.save()
        EmailAddress.objects.filter(user=user).exclude(email__iexact=DEMO_EMAIL).delete()
        EmailAddress.objects.update_or_create(
            user=user,
            email__iexact=DEMO_EMAIL,
            defaults={"email": DEMO_EMAIL, "verified": True, "primary": True},
        )
    return user


def demo_game_ensure(user: User) -> Game:
    """The demo user's running game, or a new one against two medium bots (3 players).

    It starts at once; the bots' opening turns run after the commit (in this process
    without a broker, else in a worker), so the demo user finds their turn waiting.
    """
    game = (
        Game.objects.filter(
            status=Game.Status.ACTIVE, created_by=user, seats__user=user, seats__resigned=False
        )
        .order_by("-created_at")
        .first()
    )
    if game is None:
        game = game_create(creator=user, players=3, seats=DEMO_GAME_BOTS)
    return game


class Command(BaseCommand):
    help = (
        "Create (or repair) the demo account demo / demo-password-123 with a game against "
        "two bots, and print how to log in."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--force",
            action="store_true",
            help="Run even with DEBUG off (the demo password is public: never on a public site).",
        )

    def handle(self, *args, force: bool = False, **options):
        if not settings.DEBUG and not force:
            raise CommandError(
                "DEBUG is off: this looks like a real site, and the demo password is public. "
                "Use --force if you really want the demo account here."
            )
        user = demo_user_ensure()
        game = demo_game_ensure(user)
        self.stdout.write(
            self.style.SUCCESS("Demo account ready.")
            + f"\n  Open {settings.SITE_URL}/accounts/login/"
            + f"\n  Username: {DEMO_USERNAME}\n  Password: {DEMO_PASSWORD}"
            + f"\n  A game against two bots is waiting: {settings.SITE_URL}/games/{game.pk}/"
        )
