// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "exportrange.h"

#include "query/datastart.h"
#include "rangecontroller.h"
#include "timebounds.h"

namespace Headroom {

std::optional<std::pair<qint64, qint64>>
exportRange(const Dashboard &dashboard, const CommandLine &options, const SeriesRegistry &registry,
            const SeriesStore &store, qint64 endMs, qint64 defaultFromMs, QString *error)
{
    auto bounds = resolveTimeBounds(options.fromSpec, options.toSpec, endMs, options.rangeMs,
                                    defaultFromMs, error);
    if (!bounds || !options.fromSpec.isEmpty() || options.rangeMs > 0)
        return bounds; // a range asked for is kept as asked
    auto &[from, to] = *bounds;
    from = growingRangeStart(
        from, to, dashboardDataStartMs(dashboard.panels, registry, store, from, to, options.width));
    return bounds;
}

} // namespace Headroom
