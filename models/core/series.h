// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Series identity: source + metric + labels, with the metadata the views need.
#pragma once

#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>

namespace Headroom {

// USE method role of a series; decides where it appears in the USE matrix.
enum class UseKind
{
    Utilization,
    Saturation,
    Errors,
    Throughput,
    Latency,
    Info
};

QString useKindName(UseKind kind);
UseKind useKindFromName(const QString &name, bool *ok = nullptr);

// Sorted, so that the same label set always prints the same way.
using Labels = QMap<QString, QString>;

// "{a=1,b=x}" form used in CSV files and the cache; values are escaped.
QString labelsToString(const Labels &labels);
Labels labelsFromString(const QString &text, bool *ok = nullptr);

// Whether labels has every label of wanted with the same value (wanted empty: true).
bool labelsInclude(const Labels &labels, const Labels &wanted);

struct SeriesKey
{
    QString source; // a configured source instance, e.g. "host" or "pg:orders-db"
    QString metric; // e.g. "host.cpu.utilization"
    Labels labels; // e.g. {cpu=all}

    friend bool operator==(const SeriesKey &, const SeriesKey &) = default;
    QString toString() const;
};

size_t qHash(const SeriesKey &key, size_t seed = 0) noexcept;

struct SeriesInfo
{
    SeriesKey key;
    QString unit; // "%", "B/s", "1/s", "ms", ""
    QString resource; // "cpu", "memory", "disk:sda", "nic:eth0"
    UseKind kind = UseKind::Info;
    bool histogram = false;
};

} // namespace Headroom

Q_DECLARE_METATYPE(Headroom::SeriesKey)
Q_DECLARE_METATYPE(Headroom::SeriesInfo)
