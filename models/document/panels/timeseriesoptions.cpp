#include "document/panels/timeseriesoptions.h"

#include "core/jsonreader.h"

namespace Headroom {

using namespace Qt::StringLiterals;

bool checkTimeSeriesPanel(JsonReader &reader, const DashboardPanel &panel, const QString &path)
{
    const QJsonValue apdex = panel.options.value(u"apdex"_s);
    if (apdex.isUndefined())
        return true;
    const QString field
        = JsonReader::joinPath(JsonReader::joinPath(path, u"options"_s), u"apdex"_s);
    if (!apdex.isString() || !parseDuration(apdex.toString()))
        return reader.fail(
            field,
            u"must be a duration like 50ms (the APDEX T: satisfied within it, "
            "tolerated within 4 times it), got %1"_s.arg(JsonReader::describe(apdex)));
    return true;
}

std::optional<qint64> timeSeriesApdexTMs(const DashboardPanel &panel)
{
    return parseDuration(panel.options.value(u"apdex"_s).toString());
}

} // namespace Headroom
