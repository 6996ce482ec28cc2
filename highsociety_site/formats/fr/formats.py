"""French dates: "samedi 28 nov. 2026, 01:09", no capitals."""

DATE_FORMAT = "j N Y"  # 28 nov. 2026
DATETIME_FORMAT = "l j N Y, H:i"  # samedi 28 nov. 2026, 01:09
SHORT_DATETIME_FORMAT = "j N, H:i"  # 28 nov., 01:09
MONTH_DAY_FORMAT = "l j N"  # samedi 28 nov.
YEAR_MONTH_FORMAT = "F Y"  # novembre 2026
