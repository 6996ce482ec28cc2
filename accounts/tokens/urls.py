from django.urls import path

from accounts.tokens import views

urlpatterns = [
    path("", views.tokens, name="api_tokens"),
    path("new/", views.token_new, name="api_token_new"),
    path("<int:token_id>/revoke/", views.token_delete, name="api_token_revoke"),
]
