// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// One entry of a collector's metric catalogue: what a series name means (unit, USE kind,
// resource), written once and used by every producer of that name, so that a host read
// from /proc, over SSH or from node_exporter gives series that look the same.
#pragma once

#include "core/sample.h"

#include <QString>

namespace Headroom {

struct MetricSpec
{
    QString name; // e.g. "host.disk.utilization"
    QString unit; // "%", "B/s", "1/s"...; empty: a plain number
    UseKind kind = UseKind::Info;
    // The resource, or with resourceLabel set its prefix: "disk:" + the device label.
    QString resource;
    QString resourceLabel;
    QString description; // one line, for catalogue listings and tests

    // "cpu", or "disk:sda" for {device=sda}.
    QString resourceFor(const Labels &labels) const
    {
        return resourceLabel.isEmpty() ? resource : resource + labels.value(resourceLabel);
    }
    // The form a catalogue listing shows: "cpu", "disk:<device>".
    QString resourcePattern() const
    {
        return resourceLabel.isEmpty() ? resource : QString(resource + u'<' + resourceLabel + u'>');
    }
};

// One value of `metric` with `labels` from the batch's source: unit, resource and kind
// come from the catalogue entry.
inline void addValue(SampleBatch &batch, const MetricSpec &metric, const Labels &labels,
                     double value)
{
    batch.add({ batch.source, metric.name, labels }, metric.unit, metric.resourceFor(labels),
              metric.kind, value);
}

} // namespace Headroom
