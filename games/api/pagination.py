from rest_framework.pagination import PageNumberPagination


class PagePagination(PageNumberPagination):
    """``?page=N`` (from 1) and ``?page_size=M`` (at most 100)."""

    page_size_query_param = "page_size"
    max_page_size = 100
    page_size_query_description = "Results per page (1 to 100; 20 unless given)."
