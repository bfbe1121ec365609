// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "retentionsetting.h"

#include "core/duration.h"

#include <QSettings>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
constexpr qint64 DayMs = 24LL * 3600 * 1000;
const QString RawKey = u"cache/retentionDays"_s;
const QString MinuteKey = u"cache/minuteRetentionDays"_s;
const QString HourKey = u"cache/hourRetentionDays"_s;

int storedDays(const QString &key, int fallback)
{
    bool ok = false;
    const int days = QSettings().value(key).toInt(&ok);
    return ok ? std::clamp(days, MinRetentionDays, MaxRetentionDays) : fallback;
}
} // namespace

std::optional<int> parseRetention(const QString &text, QString *error)
{
    const auto ms = parseDuration(text);
    if (!ms || *ms % DayMs != 0 || *ms / DayMs < MinRetentionDays
        || *ms / DayMs > MaxRetentionDays) {
        *error = u"\"%1\": expected whole days from %2d to %3d, e.g. 30d or 8w"_s.arg(text)
                     .arg(MinRetentionDays)
                     .arg(MaxRetentionDays);
        return std::nullopt;
    }
    return int(*ms / DayMs);
}

RetentionDays retentionSetting()
{
    return { storedDays(RawKey, DefaultRetentionDays),
             storedDays(MinuteKey, DefaultMinuteRetentionDays),
             storedDays(HourKey, DefaultHourRetentionDays) };
}

void saveRetentionSetting(const RetentionDays &days)
{
    QSettings settings;
    settings.setValue(RawKey, std::clamp(days.raw, MinRetentionDays, MaxRetentionDays));
    settings.setValue(MinuteKey, std::clamp(days.minute, MinRetentionDays, MaxRetentionDays));
    settings.setValue(HourKey, std::clamp(days.hour, MinRetentionDays, MaxRetentionDays));
}

RetentionDays effectiveRetention(const RetentionDays &chosen)
{
    const RetentionDays setting = retentionSetting();
    return { chosen.raw > 0 ? chosen.raw : setting.raw,
             chosen.minute > 0 ? chosen.minute : setting.minute,
             chosen.hour > 0 ? chosen.hour : setting.hour };
}

CacheOptions cacheOptionsWithRetention(const RetentionDays &chosen)
{
    const RetentionDays days = effectiveRetention(chosen);
    CacheOptions options;
    options.retentionDays = days.raw;
    options.minuteRetentionDays = days.minute;
    options.hourRetentionDays = days.hour;
    return options;
}

} // namespace Headroom
