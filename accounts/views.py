"""Pages of the accounts app."""

from allauth.account.adapter import get_adapter
from allauth.account.decorators import reauthentication_required
from allauth.account.models import EmailAddress
from allauth.account.views import ConfirmEmailView as AllauthConfirmEmailView
from allauth.account.views import EmailView as AllauthEmailView
from allauth.account.views import PasswordResetFromKeyView as AllauthPasswordResetFromKeyView
from allauth.account.views import SignupView as AllauthSignupView
from django.contrib import messages
from django.contrib.auth import logout, update_session_auth_hash
from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.decorators import login_required
from accounts.deletion import account_delete_and_tell
from accounts.email_undo import email_change_undo, undo_read
from accounts.export import account_data
from accounts.forms import AccountDeleteForm, ProfileForm
from accounts.models import User
from accounts.tokens.services import tokens_revoke_all
from games.chat import chat_mute
from games.errors import GameError
from games.selectors import people_held_back
from games.services import invitation_block_lift, player_commitments


@login_required()
@require_http_methods(["GET", "HEAD", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    """Show the player's profile and let them change their display name."""
    if request.method != "POST":
        # The name the others see now, to edit: a player who never chose one goes by
        # their username, and an empty box would read as "no name".
        form = ProfileForm(
            instance=request.user,
            initial={"display_name": request.user.display_name or request.user.username},
        )
        return render(request, "accounts/profile.html", _profile_context(request, form))
    # A copy of the user: a rejected value must not reach request.user (the page's
    # header shows its name) through the form's validation.
    form = ProfileForm(request.POST, instance=User.objects.get(pk=request.user.pk))
    if form.is_valid():
        form.save()
        messages.success(request, _("Your display name is saved."))
        return redirect("profile")
    return render(request, "accounts/profile.html", _profile_context(request, form), status=400)


def _profile_context(request: HttpRequest, form: ProfileForm) -> dict:
    return {"form": form, "held_back": people_held_back(user=request.user)}


@login_required()
@require_POST
def people_update(request: HttpRequest) -> HttpResponse:
    """Undo a mute (show a player's chat messages again) or a block (take their
    invitations again), from the profile's list."""
    what, username = request.POST.get("what"), request.POST.get("username")
    try:
        if what == "unmute":
            other = chat_mute(user=request.user, username=username, mute=False)
            done = _("%(name)s no longer muted.")
        elif what == "unblock":
            other = invitation_block_lift(user=request.user, username=username)
            done = _("You take invitations from %(name)s again.")
        else:
            raise GameError(_("Choose whom to show again or to take invitations from."))
    except GameError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, done % {"name": other.public_name})
    return redirect(f"{reverse('profile')}#people")


@login_required()
@require_POST
def sign_out_everywhere(request: HttpRequest) -> HttpResponse:
    """End every other session of the player and revoke their API tokens; this browser
    stays signed in."""
    user = User.objects.get(pk=request.user.pk)
    user.session_generation = F("session_generation") + 1
    user.save(update_fields=["session_generation"])
    user.refresh_from_db(fields=["session_generation"])
    tokens_revoke_all(user=user)
    update_session_auth_hash(request, user)
    messages.success(
        request, _("You are signed out everywhere else, and your API tokens are revoked.")
    )
    return redirect("profile")


@login_required("delete_account")
@require_http_methods(["GET", "HEAD", "POST"])
@reauthentication_required(allow_get=True)  # the password (or second factor) again first
def delete_account(request: HttpRequest) -> HttpResponse:
    """Say what deleting the account does, then do it: leave every table, empty the
    account, sign out (accounts.deletion)."""
    form = AccountDeleteForm(request.POST if request.method == "POST" else None)
    if request.method != "POST" or not form.is_valid():
        context = {"form": form, "commitments": player_commitments(user=request.user)}
        status = 400 if request.method == "POST" else 200
        return render(request, "accounts/delete.html", context, status=status)
    account_delete_and_tell(user=request.user, request=request)
    logout(request)
    messages.success(request, _("Your account is deleted. Thank you for playing High Society."))
    return redirect("lobby")


@login_required()
@require_http_methods(["GET", "HEAD"])
@reauthentication_required  # asked here, so the download itself comes from a page
def your_data(request: HttpRequest) -> HttpResponse:
    """What the data file holds, and the button that downloads it."""
    return render(request, "accounts/data.html")


@login_required()
@require_http_methods(["GET", "HEAD"])
@reauthentication_required  # the password again: the file holds the e-mail address
def download_data(request: HttpRequest) -> HttpResponse:
    """Everything the site keeps about the player, as a JSON file (accounts.export)."""
    response = JsonResponse(
        account_data(user=request.user), json_dumps_params={"indent": 2, "ensure_ascii": False}
    )
    day = timezone.now().date().isoformat()
    name = f"high-society-{request.user.pk}-{day}.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "no-store"
    return response


# allauth sends one confirmation e-mail per address every few minutes and skips the
# ones asked for meanwhile without a word (the link already sent still works).
CONFIRMATION_NOT_SENT = gettext_lazy(
    "No e-mail went out just now: this address got one from us a few minutes ago, and "
    "its link still works. Check the inbox (and the spam folder), or ask again in a few "
    "minutes."
)


@require_safe
def password_reset_link_broken(request: HttpRequest) -> HttpResponse:
    """A reset link cut short or mangled so that allauth's route does not match it (no
    "-" between its two parts, as a mail program that breaks a long line may leave
    it): the page allauth shows for a used or wrong link, not a bare "not found"."""
    return render(request, "account/password_reset_from_key.html", {"token_fail": True}, status=404)


class SignupView(AllauthSignupView):
    """allauth's sign-up, safe against the same form sent twice at once (a double
    click): both passed the checks, and the second one's insert met the account the
    first had just made, a 500.  That second answer is now the first one's page ("we
    sent you an e-mail"); two people taking one name at the same moment are told that
    it was just taken."""

    def form_valid(self, form) -> HttpResponse:
        try:
            with transaction.atomic():
                return super().form_valid(form)
        except IntegrityError:
            username = form.cleaned_data.get("username") or ""
            email = form.cleaned_data.get("email") or ""
            twin = User.objects.filter(
                Q(username__iexact=username), Q(email__iexact=email) if email else Q(pk=None)
            )
            if twin.exists():
                return get_adapter(self.request).respond_email_verification_sent(self.request, None)
            form.add_error(
                None,
                _(
                    "An account with this username or e-mail address was made a moment "
                    "ago. Choose another username, or log in if it is yours."
                ),
            )
            return self.form_invalid(form)


class EmailView(AllauthEmailView):
    """allauth's page that changes the e-mail address, which says so when a
    confirmation e-mail asked for was not sent (``CONFIRMATION_NOT_SENT``): a new
    address, or "Send the confirmation again", met with silence otherwise."""

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        asked = "action_add" in request.POST or "action_send" in request.POST
        sent = getattr(request, "hs_confirmation_sent", False)
        unsent = getattr(request, "hs_mail_unsent", False)  # the mail server's own message
        if asked and response.status_code == 302 and not sent and not unsent:
            messages.warning(request, CONFIRMATION_NOT_SENT)
        return response


class SignOutOnSubmit:
    """For allauth's pages behind an e-mailed link (confirm an address, choose a new
    password): a link for another account than the one logged in signs that one out
    only when the page's form is sent, not as the link opens (allauth's way, which left
    the player logged out without a word); the page says who is logged in meanwhile."""

    def logout(self) -> None:
        if self.request.method == "POST":
            super().logout()
        else:
            self.signed_in_as = self.request.user

    def get_context_data(self, **kwargs) -> dict:
        context = super().get_context_data(**kwargs)
        context["signed_in_as"] = getattr(self, "signed_in_as", None)
        return context


class PasswordResetFromKeyView(SignOutOnSubmit, AllauthPasswordResetFromKeyView):
    """allauth's page behind a password-reset link.  allauth signs the other account out
    as the request comes in, before the form is read: here only a new password that is
    taken does (a mistyped one left the player logged out, with nothing changed)."""

    def logout(self) -> None:
        self.signed_in_as = self.request.user

    def form_valid(self, form) -> HttpResponse:
        if getattr(self, "signed_in_as", None) is not None:
            super(SignOutOnSubmit, self).logout()  # allauth's own
        return super().form_valid(form)


class ConfirmEmailView(SignOutOnSubmit, AllauthConfirmEmailView):
    """allauth's page behind a confirmation link, which tells a player who follows a
    link again, logged in with nothing left to confirm, that their address is
    confirmed (allauth only knows the link no longer works)."""

    def get_context_data(self, **kwargs) -> dict:
        context = super().get_context_data(**kwargs)
        user = self.request.user
        confirmation = context.get("confirmation")
        addresses = EmailAddress.objects  # allauth's: the verified one, the one pending
        if confirmation is not None:
            # A change of address (the account has a confirmed one): not a sign-up.
            current = addresses.get_verified(confirmation.email_address.user)
            context["replaces_email"] = current.email if current else None
        elif user.is_authenticated and addresses.get_new(user) is None:
            current = addresses.get_verified(user)
            context["confirmed_email"] = current.email if current else None
        return context


@require_http_methods(["GET", "HEAD", "POST"])
def email_undo(request: HttpRequest, token: str) -> HttpResponse:
    """The old address's link after an address change (accounts.email_undo): GET asks
    (a mail program's link checker must not act), POST takes the address back."""
    try:
        undo = undo_read(token)
    except signing.SignatureExpired:
        return render(request, "accounts/email_undo.html", {"state": "expired"}, status=400)
    except signing.BadSignature:
        return render(request, "accounts/email_undo.html", {"state": "invalid"}, status=400)
    context = {"old": undo.old, "new": undo.new, "token": token}
    if request.method != "POST":
        return render(request, "accounts/email_undo.html", {**context, "state": "ask"})
    state = email_change_undo(undo=undo)
    if state == "done" and request.user.is_authenticated and request.user.pk == undo.user_id:
        logout(request)  # this browser too: the session may be the intruder's
    return render(
        request,
        "accounts/email_undo.html",
        {**context, "state": state},
        status=200 if state == "done" else 409,
    )
