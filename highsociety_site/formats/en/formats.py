"""English dates as the site writes them: day before month, 24-hour clock."""

DATE_FORMAT = "j M Y"  # 28 Nov 2026
DATETIME_FORMAT = "D j M Y, H:i"  # Sat 28 Nov 2026, 01:09
SHORT_DATETIME_FORMAT = "j M, H:i"  # 28 Nov, 01:09 (the game log)
MONTH_DAY_FORMAT = "D j M"  # Sat 28 Nov
YEAR_MONTH_FORMAT = "F Y"  # November 2026
