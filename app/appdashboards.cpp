#include "appdashboards.h"

namespace Headroom {

DashboardLoadResult loadDashboardOrDefault(const QString &path)
{
    return loadDashboard(path.isEmpty() ? DefaultDashboardResource : path);
}

QString unknownVariable(const Dashboard &dashboard, const QMap<QString, QString> &values)
{
    for (auto it = values.cbegin(); it != values.cend(); ++it) {
        const bool known
            = std::any_of(dashboard.variables.cbegin(), dashboard.variables.cend(),
                          [&](const DashboardVariable &v) { return v.name == it.key(); });
        if (!known)
            return it.key();
    }
    return {};
}

} // namespace Headroom
