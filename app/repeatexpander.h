// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The dashboard as the window draws it and what its variable bar offers, resolved in the
// pool (an engine may be asked: query/promql/repeatvalues.h): the panels and sections
// repeated over their variables' values, and the values engines list for variables with
// labelValues. Only the newest request's answer comes back: another dashboard, edit or
// value since makes the older ones moot. GUI-free, so the tests link it.
#pragma once

#include "document/dashboard.h"

#include <QFuture>
#include <QMap>
#include <QObject>
#include <QStringList>

namespace Headroom {

class SeriesStore;

struct RepeatExpansion
{
    bool repeats = false; // false: the panels as drawn are the dashboard's
    Dashboard drawn; // the dashboard with its repeats expanded
    QMap<QString, QStringList> listed; // variable -> the values its engine listed
    QStringList messages; // why an engine could not answer
};

class RepeatExpander : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~RepeatExpander() override; // waits for an expansion in flight: it reads the store

    // Expands dashboard's repeats with their values over [fromMs, toMs] and, when
    // mayAskEngines, lists the values of its variables with labelValues (only a trusted
    // dashboard's engines may be asked: an untrusted file chose them); expanded() when
    // done. With nothing to do, it only drops the answers still to come.
    void expand(const Dashboard &dashboard, const SeriesStore *store, qint64 fromMs, qint64 toMs,
                bool mayAskEngines);

Q_SIGNALS:
    void expanded(const Headroom::RepeatExpansion &expansion);

private:
    int m_generation = 0; // the newest expansion asked for; older answers are dropped
    QFuture<RepeatExpansion> m_expansion;
};

} // namespace Headroom
