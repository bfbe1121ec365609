// The resource a series is evidence about, as a finding names it: "CPU", "disk vda",
// "NIC eth1", "database orders", "shard set orders", "shard public.orders_3",
// "statement SELECT ... FROM orders WHERE id = $1". A statement or a shard is its own
// resource (inside its database): a plan flip is news about one statement.
#pragma once

#include "core/series.h"

#include <QString>

namespace Headroom::Analysis {

QString resourceDisplayName(const SeriesInfo &info);

} // namespace Headroom::Analysis
