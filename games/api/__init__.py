"""The REST API under /api/v1/ (docs/api.md, the REST API), built with Django REST framework.

One view per operation (``views``), input and output serializers (``serializers``), one
error format (``errors``), throttles (``throttling``) and the OpenAPI descriptions
(``schema``).  Like the pages, the API changes games only through ``games.services`` and
shows them only through ``games.selectors.game_view_for_user``.
"""
