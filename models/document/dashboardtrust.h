// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Whether Headroom may act on what a dashboard file names: hosts to connect to and SQL
// to run. Dashboards are shared (mail, wikis, tickets), so a file the user did not
// write is untrusted until the user says otherwise, the way editors treat a folder
// they have not opened before. The answer is remembered per fingerprint of those
// targets and that SQL: changing a target or a query asks again, moving a panel does
// not. Values the user typed (a --var, the variable bar) are the user's own and never
// need trust; neither does a local source ("" or "local").
#pragma once

#include "collector/collectorregistry.h"
#include "document/dashboard.h"

#include <QMap>
#include <QString>
#include <QStringList>

namespace Headroom {

struct TrustItem
{
    enum class Kind
    {
        Target, // a host, URL or connection string the source connects to
        Sql // a query the source runs there
    };
    QString sourceId;
    QString option; // the option's name in the source's config: "conninfo", "queries"
    Kind kind = Kind::Target;
    QString value; // with variables substituted, as the source would use it
};

struct TrustRequest
{
    QList<TrustItem> items;

    bool isEmpty() const { return items.isEmpty(); }
    // The ids of the sources that may not start without trust, in dashboard order.
    QStringList sources() const;
    // SHA-256 (hex) of the items: equal for the same targets and SQL.
    QString fingerprint() const;
    // One line per item: "pg connects to host=db1 dbname=erp", "pg runs SQL: SELECT ...".
    QStringList describe() const;
};

// Option names are marked in each plugin's config schema: a property with
// "trust": "target" (its string value) or "trust": "sql" (its string value, or every
// "sql" member of the objects it holds). `values` are the variable values in force;
// a value that is neither the variable's default nor one of its options in the file
// is the user's own.
TrustRequest trustRequest(const Dashboard &dashboard, const QList<CollectorPluginInfo> &plugins,
                          const QMap<QString, QString> &values);

// The option names of `source` whose whole value is one ${variable} the user set
// (a value that is not the file's default or options): the plugin may treat them as the user's
// own choice rather than the file's (CollectorConfig::userOptions).
QStringList userSuppliedOptions(const Dashboard &dashboard, const DashboardSource &source,
                                const QMap<QString, QString> &values);

class DashboardTrustStore;

// Where a dashboard came from decides where trust starts: the shipped ones (Qt
// resources, ":/dashboards/...") are Headroom's own.
inline bool isShippedDashboard(const QString &path)
{
    return path.startsWith(QLatin1StringView(":/"));
}

// The outcome of opening a dashboard: what it asks to be trusted with and whether it
// is (shipped, nothing to trust, or a fingerprint in the store).
struct TrustCheck
{
    TrustRequest request;
    bool trusted = true;
    // The sources to hold back (none when trusted).
    QStringList held() const { return trusted ? QStringList() : request.sources(); }
};

TrustCheck checkDashboardTrust(const Dashboard &dashboard, const QString &path,
                               const QList<CollectorPluginInfo> &plugins,
                               const QMap<QString, QString> &values,
                               const DashboardTrustStore &store);

// The fingerprints the user has trusted, in a small JSON file of the user's state
// directory (0600). A file it cannot read is reported and never overwritten.
class DashboardTrustStore
{
public:
    // $XDG_STATE_HOME/headroom/trusted-dashboards.json (~/.local/state/...).
    static QString defaultPath();

    explicit DashboardTrustStore(QString path = defaultPath());

    bool isTrusted(const QString &fingerprint) const;
    // Adds the fingerprint (noting the file it came from, for the user's eyes only).
    bool trust(const QString &fingerprint, const QString &file, QString *error);

private:
    bool read(QJsonObject *entries, QString *error) const;

    QString m_path;
};

} // namespace Headroom
