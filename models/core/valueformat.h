// Short figures with their units, for tables, alert messages and tooltips.
#pragma once

#include <QString>

namespace Headroom {

// Short figure with its unit: "93 %", "2.1", "0.4 /s", "12 pages/s", "1.5 MB/s".
QString formatUseValue(double value, const QString &unit);

} // namespace Headroom
