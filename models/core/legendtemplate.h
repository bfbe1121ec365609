// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Legend names from a template over a series' labels, like Grafana's legendFormat:
// "{interface} {direction}" names the line of {interface=eth0,direction=rx} "eth0 rx".
//
// A placeholder is a label name, or one of the series' own fields:
//   {metric}     the metric without its family prefix ("rx.bytes" of "nic.rx.bytes")
//   {source}     the source instance ("pg:orders-db")
//   {unit}       the unit ("B/s")
//   {statement}  a statement's short name (statementname.h); empty for other series
// A label of the same name wins over a field. "{{" and "}}" are literal braces. A label
// the series does not have expands to nothing, and the spaces it leaves are collapsed.
#pragma once

#include "core/series.h"

#include <QList>
#include <QString>
#include <optional>

namespace Headroom {

class LegendTemplate
{
public:
    // nullopt with *error saying what is wrong and at which character (1-based), e.g.
    // "'{' at character 7 is not closed".
    static std::optional<LegendTemplate> parse(const QString &text, QString *error);

    QString expand(const SeriesInfo &info) const;
    // The placeholder names, in order (for editors and checks).
    QStringList placeholders() const;

private:
    struct Part
    {
        QString text; // literal text, or the placeholder's name
        bool placeholder = false;
    };
    QList<Part> m_parts;
};

// The metric without its family prefix: "rx.bytes" of "nic.rx.bytes".
QString metricWithoutFamily(const QString &metric);

} // namespace Headroom
