"""German dates: "Sa, 28. Nov. 2026, 01:09"."""

DATE_FORMAT = "j. N Y"  # 28. Nov. 2026
DATETIME_FORMAT = "D, j. N Y, H:i"  # Sa, 28. Nov. 2026, 01:09
SHORT_DATETIME_FORMAT = "j. N, H:i"  # 28. Nov., 01:09
MONTH_DAY_FORMAT = "D, j. N"  # Sa, 28. Nov.
YEAR_MONTH_FORMAT = "F Y"  # November 2026
