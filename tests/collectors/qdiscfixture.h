// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Captured RTM_GETQDISC dumps (tests/fixtures/qdisc/*/, written by capture.sh): the raw
// bytes, the interface names by index and iproute2's reading of the same moment.
#pragma once

#include "collectortestutil.h"
#include "qdiscstats.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

namespace Headroom::Test {

inline QByteArray qdiscDump(const QString &dir)
{
    return readFixture(QStringLiteral("qdisc/") + dir + QStringLiteral("/dump.bin"));
}

// "ifindex name" per line (ip -o link), as index -> name.
inline QHash<int, QString> qdiscInterfaceNames(const QString &dir)
{
    QHash<int, QString> names;
    const QByteArray text
        = readFixture(QStringLiteral("qdisc/") + dir + QStringLiteral("/ifnames"));
    for (const auto lines = text.split('\n'); const QByteArray &line : lines) {
        const QList<QByteArray> fields = line.simplified().split(' ');
        if (fields.size() == 2)
            names.insert(fields[0].toInt(), QString::fromLatin1(fields[1]));
    }
    return names;
}

inline int qdiscInterfaceIndex(const QString &dir, const QString &name)
{
    return qdiscInterfaceNames(dir).key(name, 0);
}

// `tc -s -j qdisc show` of the same moment: one object per qdisc.
inline QJsonArray tcQdiscs(const QString &dir)
{
    return QJsonDocument::fromJson(
               readFixture(QStringLiteral("qdisc/") + dir + QStringLiteral("/tc.json")))
        .array();
}

// tc's entry for the root qdisc of `dev`.
inline QJsonObject tcRoot(const QString &dir, const QString &dev)
{
    for (const auto values = tcQdiscs(dir); const auto &value : values) {
        const QJsonObject qdisc = value.toObject();
        if (qdisc.value(QStringLiteral("dev")).toString() == dev
            && qdisc.value(QStringLiteral("root")).toBool())
            return qdisc;
    }
    return {};
}

} // namespace Headroom::Test
