// How long the cache keeps what it collects: --retention for one run, else the user's
// setting (Settings ▸ Keep History…, stored in headroom.conf), else 30 days. Whole days
// from 1 to 400. GUI-free so the rules can be tested.
#pragma once

#include <QString>
#include <optional>

namespace Headroom {

// "30d", "8w", "400d": whole days within the bounds; nullopt with *error otherwise.
std::optional<int> parseRetention(const QString &text, QString *error);

// The stored setting, clamped to the bounds; the default when none is stored.
int retentionDaysSetting();
void saveRetentionDaysSetting(int days);

} // namespace Headroom
