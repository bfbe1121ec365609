#include "retentionsetting.h"

#include "core/duration.h"
#include "engine/cache/samplecache.h"

#include <QSettings>
#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {
constexpr qint64 DayMs = 24LL * 3600 * 1000;
const QString SettingKey = u"cache/retentionDays"_s;
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

int retentionDaysSetting()
{
    bool ok = false;
    const int days = QSettings().value(SettingKey).toInt(&ok);
    return ok ? std::clamp(days, MinRetentionDays, MaxRetentionDays) : DefaultRetentionDays;
}

void saveRetentionDaysSetting(int days)
{
    QSettings().setValue(SettingKey, std::clamp(days, MinRetentionDays, MaxRetentionDays));
}

} // namespace Headroom
