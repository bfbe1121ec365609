#include "document/dashboardrepeat.h"

#include <algorithm>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

constexpr int GridColumns = 12;

bool sharesRows(const Dashboard &dashboard, const DashboardPanel &panel)
{
    const PanelLayout &l = panel.layout;
    return std::any_of(dashboard.panels.cbegin(), dashboard.panels.cend(),
                       [&](const DashboardPanel &other) {
                           return other.id != panel.id && other.layout.y < l.y + l.h
                               && other.layout.y + other.layout.h > l.y;
                       });
}

QString copyTitle(const DashboardPanel &panel, const QString &value)
{
    const QString name = panel.repeat;
    if (!panel.title.contains(u"${"_s + name + u'}') && !panel.title.contains(u'$' + name))
        return panel.title.isEmpty() ? value : panel.title + u" — "_s + value;
    QString title = panel.title;
    title.replace(u"${"_s + name + u'}', value);
    title.replace(u'$' + name, value);
    return title;
}

// Moves everything starting at or below row `from` down by `rows`.
void shiftDown(Dashboard *dashboard, int from, int rows)
{
    for (DashboardPanel &panel : dashboard->panels) {
        if (panel.layout.y >= from)
            panel.layout.y += rows;
    }
    for (DashboardSection &section : dashboard->sections) {
        if (section.y >= from)
            section.y += rows;
    }
}

} // namespace

bool hasRepeats(const Dashboard &dashboard)
{
    return std::any_of(dashboard.panels.cbegin(), dashboard.panels.cend(),
                       [](const DashboardPanel &panel) { return !panel.repeat.isEmpty(); });
}

Dashboard expandRepeats(const Dashboard &dashboard, const QMap<QString, QStringList> &values)
{
    Dashboard out = dashboard;
    // Top to bottom, so a shift never moves a panel not yet expanded past one that is.
    QList<QString> order;
    for (const DashboardPanel &panel : dashboard.panels) {
        if (!panel.repeat.isEmpty() && !values.value(panel.repeat).isEmpty())
            order.append(panel.id);
    }
    std::stable_sort(order.begin(), order.end(), [&](const QString &a, const QString &b) {
        return dashboard.panel(a)->layout.y < dashboard.panel(b)->layout.y;
    });
    for (const QString &id : std::as_const(order)) {
        const auto at = std::find_if(out.panels.begin(), out.panels.end(),
                                     [&](const DashboardPanel &p) { return p.id == id; });
        const DashboardPanel original = *at;
        const QStringList panelValues = values.value(original.repeat).mid(0, MaximumRepeats);
        const PanelLayout &l = original.layout;
        const bool vertical = original.repeatVertical || sharesRows(out, original);
        const int perRow = vertical ? 1 : std::max(1, GridColumns / std::max(1, l.w));
        const int rows = int((panelValues.size() + perRow - 1) / perRow);
        QList<DashboardPanel> copies;
        for (qsizetype i = 0; i < panelValues.size(); ++i) {
            DashboardPanel copy = original;
            const QString &value = panelValues.at(i);
            copy.id = original.id + u'/' + value;
            copy.title = copyTitle(original, value);
            copy.repeat.clear();
            copy.repeatOf = original.id;
            copy.variables.insert(original.repeat, value);
            copy.layout.x = vertical ? l.x : int(i % perRow) * l.w;
            copy.layout.y = l.y + int(i / perRow) * l.h;
            copies.append(copy);
        }
        const qsizetype index = at - out.panels.begin();
        out.panels.removeAt(index);
        shiftDown(&out, l.y + l.h, (rows - 1) * l.h);
        for (qsizetype i = 0; i < copies.size(); ++i)
            out.panels.insert(index + i, copies.at(i));
    }
    return out;
}

} // namespace Headroom
