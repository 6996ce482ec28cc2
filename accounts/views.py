"""Pages of the accounts app."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts.forms import ProfileForm
from accounts.models import User


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    """Show the player's profile and let them change their display name."""
    if request.method != "POST":
        form = ProfileForm(instance=request.user)
        return render(request, "accounts/profile.html", {"form": form})
    # A copy of the user: a rejected value must not reach request.user (the page's
    # header shows its name) through the form's validation.
    form = ProfileForm(request.POST, instance=User.objects.get(pk=request.user.pk))
    if form.is_valid():
        form.save()
        messages.success(request, "Your display name is saved.")
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form}, status=400)
