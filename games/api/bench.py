"""The floor of bench/http_bench.py: a minimal Django view doing one read and one write
of a game row, served by the same server as the API (only with BENCH_FLOOR_VIEW=1)."""

from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from games.models import Game


@csrf_exempt
@require_POST
def floor(request: HttpRequest, game_id: int) -> JsonResponse:
    version = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
    Game.objects.filter(pk=game_id).update(updated_at=timezone.now())
    return JsonResponse({"id": game_id, "version": version})
