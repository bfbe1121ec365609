// pg_stat_database rows to per-second rates, safe across stats resets: when a
// database's stats_reset changes or any of its counters goes down, its baselines are
// dropped and that interval yields no rate (a gap), never a negative value or a spike.
#pragma once

#include "collector/counterrate.h"
#include "core/sample.h"

#include <QHash>
#include <QList>
#include <QString>
#include <array>

namespace Headroom {

struct PgDatabaseCounter
{
    const char *column; // in pg_stat_database
    QString metric;
    QString unit;
    UseKind kind;
};

class PgStatDatabaseRates
{
public:
    static constexpr int CounterCount = 13;
    static const std::array<PgDatabaseCounter, CounterCount> &counters();
    // SELECT datname, stats_reset::text, <counters() columns in order> FROM ...
    static QByteArray query();

    struct Row
    {
        QString datname;
        QString statsReset; // text; empty when NULL
        std::array<double, CounterCount> values {};
    };

    // Adds the rates of `rows` at tsMs to batch under `source`.
    void update(const QList<Row> &rows, qint64 tsMs, const QString &source, SampleBatch &batch);
    // Forget every baseline (new session, maybe a different server).
    void clear();

private:
    struct Known
    {
        QString statsReset;
        std::array<double, CounterCount> values {};
    };
    static QString counterKey(const QString &datname, int index);
    void forget(const QString &datname);

    CounterRate m_rates;
    QHash<QString, Known> m_known;
};

} // namespace Headroom
