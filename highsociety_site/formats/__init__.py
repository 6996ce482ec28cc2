"""How each language writes dates (``FORMAT_MODULE_PATH``): pages and e-mails ask for a
named format (``DATE_FORMAT``, ``DATETIME_FORMAT``, ``SHORT_DATETIME_FORMAT``,
``MONTH_DAY_FORMAT``), never spell one out, so a German reader gets "Sa, 28. Nov. 2026"
and a French one "samedi 28 nov. 2026" where an English one gets "Sat 28 Nov 2026"."""
