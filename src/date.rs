//! Calendar days in UTC: the dates activity is read and judged in
//! (`2026-03-01`), counted as days since 1970-01-01 so that comparing and
//! subtracting are integer operations. A shared leaf: it imports nothing
//! from the crate. The conversions are Howard Hinnant's `days_from_civil`
//! and `civil_from_days`, exact for every date of the proleptic Gregorian
//! calendar.

use std::fmt;

/// One day, UTC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Day(i64);

const SECONDS_PER_DAY: i64 = 86_400;

impl Day {
    /// The day a Unix time (seconds since 1970-01-01 00:00 UTC) falls on.
    pub fn from_unix(seconds: i64) -> Day {
        Day(seconds.div_euclid(SECONDS_PER_DAY))
    }

    /// Today, by the system clock (UTC).
    pub fn today() -> Day {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
        let seconds = now.map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        Day::from_unix(seconds)
    }

    /// The day `year-month-day`; `None` when there is no such day.
    pub fn from_ymd(year: i64, month: u32, day: u32) -> Option<Day> {
        if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
            return None;
        }
        let y = if month <= 2 { year - 1 } else { year };
        let era = y.div_euclid(400);
        let yoe = y - era * 400;
        let m = i64::from(month);
        let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        Some(Day(era * 146_097 + doe - 719_468))
    }

    /// The year, month and day of the month.
    pub fn ymd(self) -> (i64, u32, u32) {
        let z = self.0 + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z - era * 146_097;
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = (if mp < 10 { mp + 3 } else { mp - 9 }) as u32;
        let year = yoe + era * 400 + i64::from(month <= 2);
        (year, month, day)
    }

    /// `YYYY-MM-DD`, exactly; `None` for anything else or a day that does
    /// not exist.
    pub fn parse(text: &str) -> Option<Day> {
        let bytes = text.as_bytes();
        let digits = |range: std::ops::Range<usize>| -> Option<i64> {
            let part = text.get(range)?;
            part.bytes()
                .all(|b| b.is_ascii_digit())
                .then(|| part.parse().ok())?
        };
        if bytes.len() != 10 || bytes[4] != b'-' || bytes[7] != b'-' {
            return None;
        }
        let year = digits(0..4)?;
        let month = u32::try_from(digits(5..7)?).ok()?;
        let day = u32::try_from(digits(8..10)?).ok()?;
        Day::from_ymd(year, month, day)
    }

    /// `days` days earlier.
    pub fn minus_days(self, days: i64) -> Day {
        Day(self.0.saturating_sub(days))
    }

    /// `days` days later.
    pub fn plus_days(self, days: i64) -> Day {
        Day(self.0.saturating_add(days))
    }

    /// `months` calendar months later, on the same day of the month or
    /// the month's last day (a month after 31 January is 28 or 29
    /// February).
    pub fn plus_months(self, months: u32) -> Day {
        let (year, month, day) = self.ymd();
        let index = year * 12 + i64::from(month) - 1 + i64::from(months);
        let (year, month) = (index.div_euclid(12), (index.rem_euclid(12) + 1) as u32);
        let day = day.min(days_in_month(year, month));
        Day::from_ymd(year, month, day).unwrap_or(self)
    }

    /// `months` calendar months earlier, on the same day of the month or
    /// the month's last day (a month before 31 March is 28 or 29
    /// February).
    pub fn minus_months(self, months: u32) -> Day {
        let (year, month, day) = self.ymd();
        let index = year * 12 + i64::from(month) - 1 - i64::from(months);
        let (year, month) = (index.div_euclid(12), (index.rem_euclid(12) + 1) as u32);
        let day = day.min(days_in_month(year, month));
        Day::from_ymd(year, month, day).unwrap_or(self)
    }
}

/// `2026-03-01`.
impl fmt::Display for Day {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (year, month, day) = self.ymd();
        write!(f, "{year:04}-{month:02}-{day:02}")
    }
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_round_trip_and_print() {
        assert_eq!(Day::from_unix(0).to_string(), "1970-01-01");
        assert_eq!(Day::from_unix(-1).to_string(), "1969-12-31");
        assert_eq!(Day::from_unix(1_709_251_200).to_string(), "2024-03-01");
        for text in ["2024-02-29", "2000-02-29", "1999-12-31", "2026-01-01"] {
            assert_eq!(
                Day::parse(text).map(|d| d.to_string()).as_deref(),
                Some(text)
            );
        }
        for bad in [
            "2023-02-29",
            "1900-02-29",
            "2026-13-01",
            "2026-1-01",
            "+026-01-01",
            "",
        ] {
            assert_eq!(Day::parse(bad), None, "{bad}");
        }
        let mut day = Day::parse("1999-01-01").expect("a day");
        for _ in 0..20_000 {
            let (y, m, d) = day.ymd();
            assert_eq!(Day::from_ymd(y, m, d), Some(day));
            day = Day(day.0 + 1);
        }
    }

    #[test]
    fn months_back_keep_the_day_or_take_the_last() {
        let day = |s| Day::parse(s).expect("a day");
        assert_eq!(day("2026-03-31").minus_months(1), day("2026-02-28"));
        assert_eq!(day("2024-03-31").minus_months(1), day("2024-02-29"));
        assert_eq!(day("2026-03-15").minus_months(12), day("2025-03-15"));
        assert_eq!(day("2026-01-10").minus_months(14), day("2024-11-10"));
        assert_eq!(day("2026-01-10").minus_days(10), day("2025-12-31"));
    }
}
