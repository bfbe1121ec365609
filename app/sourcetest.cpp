// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "sourcetest.h"

#include <QCoreApplication>

namespace Headroom {

using namespace Qt::StringLiterals;

SourceTest sourceTest(const Dashboard &dashboard, const QMap<QString, QString> &values,
                      const CollectorRegistry *collectors, bool trusted)
{
    return [dashboard, values, collectors,
            trusted](const DashboardSource &source,
                     const std::shared_ptr<const std::atomic<bool>> &cancel) {
        if (!trusted) {
            SourceProbeResult refused;
            refused.error = u"not tested: this dashboard is not trusted yet (the bar above "
                            "the panels asks)"_s;
            return refused;
        }
        Dashboard edited = dashboard;
        qsizetype index = edited.sources.size();
        for (qsizetype i = 0; i < edited.sources.size(); ++i) {
            if (edited.sources.at(i).id == source.id)
                index = i;
        }
        if (index == edited.sources.size())
            edited.sources.append(source);
        else
            edited.sources[index] = source;
        return probeSource(*collectors, edited, index, values, 2, cancel.get());
    };
}

QString sourceStatusText(const SourceStatus &status)
{
    QString text = sourceStateName(status.state);
    if (status.state == SourceState::Ok)
        text += QCoreApplication::translate("MainWindow", ", %1 series").arg(status.seriesCount);
    if (!status.message.isEmpty())
        text += u": "_s + status.message;
    return text;
}

} // namespace Headroom
