"""The admin of accounts as staff meet it: suspending, reinstating and deleting say
first what they will do and leave a trace; only a superuser grants rights; a password
set there revokes the account's API tokens and tells its owner; the site's name rules
hold there too."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from accounts.tokens.models import ApiToken
from games.models import Game
from games.services import game_create
from tests.games.api.conftest import token_client
from tests.games.factories import people_game
from tests.second_factor import staff_admin_session

pytestmark = pytest.mark.django_db

USERS = reverse("admin:accounts_user_changelist")


def _act(client, action: str, users, *, confirm: bool):
    data = {"action": action, "_selected_action": [user.pk for user in users]}
    if confirm:
        data["post"] = "yes"
    return client.post(USERS, data, follow=True)


def change_form_data(client, user) -> dict:
    """What the admin's change page of ``user`` would post unchanged."""
    form = (
        client.get(reverse("admin:accounts_user_change", args=[user.pk])).context["adminform"].form
    )
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if name in ("date_joined", "last_login"):
            if value:
                data[f"{name}_0"], data[f"{name}_1"] = value.date(), value.time()
            continue
        if name in ("groups", "user_permissions"):
            data[name] = [item.pk for item in value or ()]
            continue
        if value is None or name in ("password", "deleted_at") or value is False:
            continue
        data[name] = value
    return data


@pytest.fixture
def moderator(db):
    """Staff who may view and change accounts, and nothing more: no superuser."""
    from tests.games.factories import StaffUserFactory

    user = StaffUserFactory(username="mod", display_name="Mod")
    user.user_permissions.add(*Permission.objects.filter(codename__in=["view_user", "change_user"]))
    client = Client()
    staff_admin_session(client, user)
    return user, client


def test_suspending_asks_first_then_revokes_tokens_and_leaves_a_trace(
    admin_client, admin_user, alice, bob, carol
):
    running = people_game(alice, bob, carol)
    token = token_client(carol)
    asked = _act(admin_client, "suspend_accounts", [carol, admin_user], confirm=False)
    html = asked.content.decode()
    assert "Suspend these accounts?" in html and "cannot be undone" in html
    # Which tables: one running game (a link to it), no waiting tables.
    game_page = reverse("admin:games_game_change", args=[running.pk])
    assert "<td>carol</td>" in html
    assert f'<td>1: <a href="{game_page}">Table {running.pk}</a></td>' in html
    assert html.count("<td>0</td>") == 2
    assert "Passed over (your own account" in html and "<td>admin</td>" not in html
    carol.refresh_from_db()
    assert carol.is_active and token.get("/api/v1/games/").status_code == 200  # not yet
    done = _act(admin_client, "suspend_accounts", [carol, admin_user], confirm=True)
    assert (
        "Suspended carol: left 0 tables, closed 0 of its own, resigned 1 running game"
        in done.content.decode()
    )
    assert "Passed over (your own account" in done.content.decode()
    carol.refresh_from_db()
    assert not carol.is_active and not ApiToken.objects.filter(user=carol).exists()
    assert Game.objects.get(pk=running.pk).status == Game.Status.ACTIVE
    assert LogEntry.objects.filter(object_id=str(carol.pk), change_message__startswith="Suspended")
    # Reinstated (no question: nothing is lost), the old token stays revoked.
    back = _act(admin_client, "reinstate_accounts", [carol], confirm=False)
    assert "Reinstated carol." in back.content.decode()
    carol.refresh_from_db()
    assert carol.is_active and token.get("/api/v1/games/").status_code == 401
    assert LogEntry.objects.filter(object_id=str(carol.pk), change_message__startswith="Reinst")
    again = _act(admin_client, "reinstate_accounts", [carol], confirm=False).content.decode()
    assert "accounts that are not suspended" in again and "carol." in again


def test_active_is_not_a_checkbox_on_the_account_page(admin_client, admin_user, carol):
    """Unticking it used to suspend at once, with no question (and staff could suspend
    themselves so); the actions do it now."""
    page = reverse("admin:accounts_user_change", args=[carol.pk])
    assert "is_active" not in admin_client.get(page).context["adminform"].form.fields
    data = change_form_data(admin_client, carol) | {"display_name": "Carol S."}
    assert admin_client.post(page, data).status_code == 302
    carol.refresh_from_db()
    assert carol.is_active and carol.display_name == "Carol S."
    mine = reverse("admin:accounts_user_change", args=[admin_user.pk])
    admin_client.post(mine, change_form_data(admin_client, admin_user))
    admin_user.refresh_from_db()
    assert admin_user.is_active


def test_a_moderator_cannot_raise_rights_nor_touch_a_superuser(moderator, admin_user, carol):
    user, client = moderator
    own = reverse("admin:accounts_user_change", args=[user.pk])
    form = client.get(own).context["adminform"].form
    assert not {"is_superuser", "is_staff", "groups", "user_permissions"} & set(form.fields)
    data = change_form_data(client, user) | {"is_superuser": "on"}
    client.post(own, data)
    user.refresh_from_db()
    assert not user.is_superuser
    # A superuser's page is read only for them, and the actions pass over the account.
    theirs = reverse("admin:accounts_user_change", args=[admin_user.pk])
    assert client.post(theirs, {"username": "taken"}).status_code == 403
    answer = _act(client, "suspend_accounts", [admin_user, carol], confirm=True)
    assert "Passed over" in answer.content.decode() and "admin" in answer.content.decode()
    admin_user.refresh_from_db()
    carol.refresh_from_db()
    assert admin_user.is_active and not carol.is_active


def test_a_password_set_by_staff_revokes_tokens_and_tells_the_owner(admin_client, carol):
    token = token_client(carol)
    mail.outbox.clear()
    page = reverse("admin:auth_user_password_change", args=[carol.pk])
    new = "a staff-set secret 4711"
    answer = admin_client.post(
        page, {"password1": new, "password2": new, "usable_password": "true"}
    )
    assert answer.status_code == 302
    assert token.get("/api/v1/games/").status_code == 401
    (notice,) = mail.outbox
    assert notice.to == [carol.email]
    assert "The password of your High Society account was changed." in notice.body
    assert "The site's staff made this change" in notice.body
    assert "IP address" not in notice.body  # the staff member's is not the player's business
    assert "If this was not you" not in notice.body  # it was staff: it says so
    assert "To choose a password of your own: http" in notice.body


def test_turning_password_log_in_off_says_so_and_a_reset_still_works(admin_client, carol):
    """Django's page can take the password away ("password-based authentication:
    disabled"); the owner was told their password "was changed"."""
    token = token_client(carol)
    mail.outbox.clear()
    page = reverse("admin:auth_user_password_change", args=[carol.pk])
    # Sent with the wrong button, Django changes nothing ("conflicting form data"): and
    # nothing is told.
    assert admin_client.post(page, {"usable_password": "false"}).status_code == 302
    carol.refresh_from_db()
    assert carol.has_usable_password() and not mail.outbox
    answer = admin_client.post(page, {"usable_password": "false", "unset-password": ""})
    assert answer.status_code == 302
    carol.refresh_from_db()
    assert not carol.has_usable_password()
    assert token.get("/api/v1/games/").status_code == 401
    (notice,) = mail.outbox
    assert notice.subject.endswith("Your account no longer has a password")
    assert "no longer has a password: you cannot log in with one" in notice.body
    assert "was changed" not in notice.body and "made this change" in notice.body
    # The way back the notice gives: a reset link reaches the account.
    mail.outbox.clear()
    Client().post(reverse("account_reset_password"), {"email": carol.email})
    (reset,) = mail.outbox
    assert reset.to == [carol.email] and "/accounts/password/reset/key/" in reset.body


def test_the_admins_own_password_page_is_the_sites(admin_client):
    answer = admin_client.get(reverse("admin:password_change"))
    assert answer.status_code == 302 and answer["Location"] == reverse("account_change_password")


@pytest.mark.parametrize(
    "field, value, refusal",
    [
        ("username", "ALICE", "Another account has this username"),
        ("username", "carol@example.com", "cannot contain"),
        ("username", "c" * 31, "at most 30 characters"),
        # Django's own words offered the "@" refused just above.
        ("username", "~xyz", "digits and . + - _ only"),
        ("display_name", "Bot (easy)", "reads like a bot"),
        ("display_name", "Open seat", "reads like a bot"),
        ("display_name", "alice", "Another player already goes by that name"),
    ],
)
def test_the_account_page_keeps_the_sites_name_rules(
    admin_client, alice, carol, field, value, refusal
):
    page = reverse("admin:accounts_user_change", args=[carol.pk])
    answer = admin_client.post(page, change_form_data(admin_client, carol) | {field: value})
    assert answer.status_code == 200 and refusal in answer.content.decode()
    assert User.objects.get(pk=carol.pk).username == "carol"


def test_a_name_made_under_older_rules_does_not_block_saving_the_account(admin_client, carol):
    """A name the rules refuse now ("open" reads as an empty seat since 2026-11-29) was
    checked again on every save: the staff could change nothing else of the account."""
    User.objects.filter(pk=carol.pk).update(username="open", display_name="Libre")
    carol.refresh_from_db()
    page = reverse("admin:accounts_user_change", args=[carol.pk])
    data = change_form_data(admin_client, carol) | {"first_name": "Caroline"}
    assert admin_client.post(page, data).status_code == 302
    assert User.objects.get(pk=carol.pk).first_name == "Caroline"
    # Changed, a name meets today's rules.
    refused = admin_client.post(page, data | {"display_name": "frei"})
    assert "reads like a bot" in refused.content.decode()


def test_a_new_account_in_the_admin_keeps_the_username_rules(admin_client, alice):
    page = reverse("admin:accounts_user_add")
    data = {"password1": "a long new secret 42", "password2": "a long new secret 42"}
    data["usable_password"] = "true"
    refused = admin_client.post(page, data | {"username": "Alice"})
    assert "Another account has this username" in refused.content.decode()
    assert admin_client.post(page, data | {"username": "frank"}).status_code == 302


def test_deleting_asks_first_then_sends_the_last_email(admin_client, alice, carol):
    from allauth.account.models import EmailAddress

    EmailAddress.objects.update_or_create(
        user=carol, email=carol.email, defaults={"verified": True, "primary": True}
    )
    hosted = game_create(creator=carol, players=3, seats=[{"open": True}, {"ai": "easy"}])
    asked = _act(admin_client, "delete_accounts", [carol], confirm=False)
    assert "Delete these accounts for good?" in asked.content.decode()
    assert User.objects.get(pk=carol.pk).username == "carol"
    mail.outbox.clear()
    done = _act(admin_client, "delete_accounts", [carol], confirm=True)
    assert "1 account deleted: carol." in done.content.decode()
    assert User.objects.get(pk=carol.pk).deleted_at is not None
    assert Game.objects.get(pk=hosted.pk).status == Game.Status.ABANDONED
    (goodbye,) = mail.outbox
    assert goodbye.to == [carol.email]
    assert "The site's staff deleted your High Society account carol" in goodbye.body
    assert "IP address" not in goodbye.body
    assert LogEntry.objects.filter(object_id=str(carol.pk), change_message__contains="was carol")


def test_only_staff_allowed_to_delete_accounts_may_delete_one(moderator, carol):
    """A moderator who may suspend (change) accounts is not offered the deletion, and
    cannot post it either: erasing an account is the delete permission's."""
    mod, client = moderator
    listing = client.get(USERS).content.decode()
    assert "suspend_accounts" in listing and "delete_accounts" not in listing
    refused = _act(client, "delete_accounts", [carol], confirm=True)
    assert "account deleted" not in refused.content.decode()
    assert User.objects.get(pk=carol.pk).deleted_at is None
    mod.user_permissions.add(Permission.objects.get(codename="delete_user"))
    assert "delete_accounts" in client.get(USERS).content.decode()
    done = _act(client, "delete_accounts", [carol], confirm=True)
    assert "1 account deleted: carol." in done.content.decode()


def test_the_account_page_explains_active_and_the_username_rules(moderator, admin_user):
    """Django's help said "Unselect this instead of deleting accounts" beside a field
    that cannot be unselected here, and "150 characters … @" on a moderator's view of
    a superuser's account."""
    _, client = moderator
    html = client.get(reverse("admin:accounts_user_change", args=[admin_user.pk])).content
    html = html.decode()
    assert "Changed by the list’s actions only" in html
    assert "At most 30 characters" in html and "150 characters" not in html
    assert "Unselect this instead of deleting accounts" not in html


def test_the_admins_own_texts_speak_the_staff_members_language(admin_client, admin_user, carol):
    """The actions, their question and their reports were English on a German admin
    page whose Django parts were German; the account's history stays in one language."""
    admin_user.language = "de"
    admin_user.save(update_fields=["language"])
    listed = admin_client.get(USERS).content.decode()
    assert "Ausgewählte Konten sperren" in listed
    asked = _act(admin_client, "suspend_accounts", [carol, admin_user], confirm=False)
    html = asked.content.decode()
    assert "Diese Konten sperren?" in html and "Suspend these accounts?" not in html
    done = _act(admin_client, "suspend_accounts", [carol, admin_user], confirm=True).content
    assert "Konto carol gesperrt" in done.decode() and "Übergangen" in done.decode()
    assert LogEntry.objects.get(object_id=str(carol.pk)).change_message.startswith("Suspended")


def test_a_deleted_account_is_read_only_in_the_admin(admin_client, carol):
    """Saving a deleted account asked for a valid username: renamed, with an address
    and a name, it put a person back on the seats and public records that say
    "Deleted player".  Its page is read-only now, and its password page refused."""
    from accounts.deletion import account_delete

    account_delete(user=carol)
    carol.refresh_from_db()
    page = reverse("admin:accounts_user_change", args=[carol.pk])
    shown = admin_client.get(page)
    assert shown.status_code == 200 and 'name="_save"' not in shown.content.decode()
    data = {"username": "revived", "email": "revived@example.com", "display_name": "Revived"}
    admin_client.raise_request_exception = False
    assert admin_client.post(page, data).status_code == 403
    password = reverse("admin:auth_user_password_change", args=[carol.pk])
    assert (
        admin_client.post(password, {"password1": "x" * 20, "password2": "x" * 20}).status_code
        == 403
    )
    stored = User.objects.get(pk=carol.pk)
    assert stored.username.startswith("~deleted-") and stored.display_name == ""
    assert not stored.has_usable_password()


def test_the_address_is_its_owners_to_change_not_the_admins(admin_client, carol):
    """Changed here, the address changed in the list while the site's e-mails (and a
    password reset) still went to the confirmed one: half a change.  It is shown, not
    offered, with where it is changed."""
    page = reverse("admin:accounts_user_change", args=[carol.pk])
    html = admin_client.get(page).content.decode()
    assert 'name="email"' not in html and "Changed by its owner only" in html
    data = change_form_data(admin_client, carol) | {"email": "new@example.com"}
    assert admin_client.post(page, data).status_code == 302
    assert User.objects.get(pk=carol.pk).email == carol.email


def test_the_admin_index_names_each_section_once(admin_client):
    """allauth's e-mail addresses and the site's users were both under "Accounts"."""
    from django.contrib import admin

    index = admin_client.get(reverse("admin:index"))
    names = [app["name"] for app in admin.site.get_app_list(index.wsgi_request)]
    assert len(names) == len(set(names)) and "Players" in names


def test_e_mail_addresses_are_shown_not_changed_in_the_admin(admin_client, alice):
    """allauth's admin let staff change a player's address (a password reset then went
    to it: whoever held it took the account), add a verified one to any account, a
    deleted one too, and mark one verified.  The list shows; nothing changes there."""
    from allauth.account.models import EmailAddress

    address, _ = EmailAddress.objects.update_or_create(
        user=alice, email="alice@example.com", defaults={"verified": True, "primary": True}
    )
    admin_client.raise_request_exception = False
    listed = admin_client.get(reverse("admin:account_emailaddress_changelist"))
    assert listed.status_code == 200 and "alice@example.com" in listed.content.decode()
    assert "make_verified" not in listed.content.decode()
    page = reverse("admin:account_emailaddress_change", args=[address.pk])
    changed = admin_client.post(page, {"user": alice.pk, "email": "thief@example.com"})
    assert changed.status_code == 403
    added = admin_client.post(
        reverse("admin:account_emailaddress_add"),
        {"user": alice.pk, "email": "thief@example.com", "verified": "on", "primary": "on"},
    )
    assert added.status_code == 403
    gone = admin_client.post(reverse("admin:account_emailaddress_delete", args=[address.pk]))
    assert gone.status_code == 403
    assert list(EmailAddress.objects.filter(user=alice).values_list("email", "verified")) == [
        ("alice@example.com", True)
    ]


def test_a_moderator_cannot_take_or_lock_out_another_member_of_staff(moderator, carol):
    """A moderator set another moderator's password in the admin ("Password changed
    successfully"), which is taking that account, and could bar them from the chats.
    Staff accounts, their own too, are changed by superusers only."""
    from tests.games.factories import StaffUserFactory

    user, client = moderator
    other = StaffUserFactory(username="mod2")
    for account in (other, user):
        page = reverse("admin:accounts_user_change", args=[account.pk])
        assert client.post(page, {"username": "taken"}).status_code == 403
        password = page.replace("/change/", "/password/")
        answer = client.post(
            password, {"password1": "N3w-secret-pass!", "password2": "N3w-secret-pass!"}
        )
        assert answer.status_code == 403, account
    answer = _act(client, "bar_from_chats", [other, carol], confirm=True)
    other.refresh_from_db()
    carol.refresh_from_db()
    assert other.chat_barred_until is None and carol.chat_barred_until is not None
    assert "mod2" in answer.content.decode()  # named among those passed over
    answer = _act(client, "suspend_accounts", [other], confirm=True)
    other.refresh_from_db()
    assert other.is_active


def test_a_moderator_sees_no_rights_and_no_part_of_a_hash(moderator, admin_client, carol):
    """The account page showed a moderator the rights fields (read only) and, to
    everyone, the password's algorithm and the first characters of its salt and hash;
    the dates could be edited."""
    _, client = moderator
    page = reverse("admin:accounts_user_change", args=[carol.pk])
    html = client.get(page).content.decode()
    assert "Superuser status" not in html and "Staff status" not in html and "Groups" not in html
    assert "Active" in html
    algorithm, *_, salt, digest = carol.password.split("$")
    for reader in (client, admin_client):
        html = reader.get(page).content.decode()
        assert "A password is set." in html
        assert salt[:6] not in html and digest[:6] not in html and f">{algorithm}<" not in html
    form = client.get(page).context["adminform"].form
    assert "last_login" not in form.fields and "date_joined" not in form.fields
