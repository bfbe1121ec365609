// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// What SQL from a dashboard file may run, without a server: the lexer sees names the
// way PostgreSQL does (nested comments, every string and quoting form), every function
// on the refused list is refused however it is spelled, and only queries pass. The
// server side (the sub-select, the read-only transaction, the checks) is in
// tst_hostiledashboard.
#include "pgdashboardconninfo.h"
#include "pgsqlguard.h"
#include "pgsqllexer.h"
#include "pgstatementtext.h"

#include <QDir>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

QStringList names(const QString &sql)
{
    QStringList out;
    for (const auto allTokens = lexSql(sql).tokens; const SqlToken &token : allTokens) {
        if (token.isName())
            out << token.text;
    }
    return out;
}

} // namespace

class TestPgSqlGuard : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void lexer_data();
    void lexer();
    void unterminated_data();
    void unterminated();
    void refusedCalls_data();
    void refusedCalls();
    void everyListedFunctionIsTested();
    void statementKinds_data();
    void statementKinds();
    void structureRefused_data();
    void structureRefused();
    void queriesThatRun_data();
    void queriesThatRun();
    void wrappers();
    void dashboardConninfo_data();
    void dashboardConninfo();
    void statementTexts_data();
    void statementTexts();

private:
    QStringList m_tested;
};

void TestPgSqlGuard::lexer_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QStringList>("names");
    QTest::newRow("folded") << u"SELECT Now()"_s << QStringList { u"select"_s, u"now"_s };
    QTest::newRow("nested comment")
        << u"/* a /* b */ still comment */ commit"_s << QStringList { u"commit"_s };
    QTest::newRow("line comment") << u"select 1 -- pg_terminate_backend(1)\n, x"_s
                                  << QStringList { u"select"_s, u"x"_s };
    // The server ends a -- comment at a carriage return too.
    QTest::newRow("comment ends at CR") << u"select 1 --\r, pg_terminate_backend(1)"_s
                                        << QStringList { u"select"_s, u"pg_terminate_backend"_s };
    QTest::newRow("string hides name")
        << u"select 'set_config(' || x"_s << QStringList { u"select"_s, u"x"_s };
    QTest::newRow("doubled quote") << u"select 'it''s', y"_s << QStringList { u"select"_s, u"y"_s };
    QTest::newRow("E string escape")
        << u"select E'a\\' b', z"_s << QStringList { u"select"_s, u"z"_s };
    QTest::newRow("dollar quoted")
        << u"select $q$ ' \" $$ $q$, w"_s << QStringList { u"select"_s, u"w"_s };
    QTest::newRow("quoted name keeps case")
        << u"select \"Set_Config\", \"a\"\"b\""_s
        << QStringList { u"select"_s, u"Set_Config"_s, u"a\"b"_s };
    QTest::newRow("unicode name") << u"select U&\"set\\005fconfig\"(1)"_s
                                  << QStringList { u"select"_s, u"set_config"_s };
    QTest::newRow("unicode name, own escape") << u"select U&\"pg!005fsleep\" UESCAPE '!' (1)"_s
                                              << QStringList { u"select"_s, u"pg_sleep"_s };
    QTest::newRow("qualified") << u"select pg_catalog.set_config()"_s
                               << QStringList { u"select"_s, u"pg_catalog"_s, u"set_config"_s };
    QTest::newRow("parameter and number") << u"select $1 + 1.5e-3"_s << QStringList { u"select"_s };
    QTest::newRow("dollar in name") << u"select a$b"_s << QStringList { u"select"_s, u"a$b"_s };
}

void TestPgSqlGuard::lexer()
{
    QFETCH(QString, sql);
    QFETCH(QStringList, names);
    const SqlLexResult result = lexSql(sql);
    QCOMPARE(result.error, QString());
    QCOMPARE(::names(sql), names);
}

void TestPgSqlGuard::unterminated_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QString>("error");
    QTest::newRow("comment") << u"select 1 /* /* */"_s
                             << u"a /* comment that starts at character 10 is never closed"_s;
    QTest::newRow("string") << u"select 'x"_s
                            << u"a string that starts at character 8 is never closed"_s;
    QTest::newRow("dollar")
        << u"select $a$ x"_s
        << u"a dollar-quoted string that starts at character 8 is never closed"_s;
    QTest::newRow("name") << u"select \"x"_s
                          << u"a quoted name that starts at character 8 is never closed"_s;
}

void TestPgSqlGuard::unterminated()
{
    QFETCH(QString, sql);
    QFETCH(QString, error);
    QCOMPARE(lexSql(sql).error, error);
    QCOMPARE(refuseDashboardSql(sql), std::optional<QString>(u"cannot be read: "_s + error));
}

// One row per entry of refusedFunctions(), written out here so that dropping an entry
// from the list fails a row; everyListedFunctionIsTested checks the other direction.
void TestPgSqlGuard::refusedCalls_data()
{
    QTest::addColumn<QString>("entry");
    QTest::addColumn<QString>("call");
    const QList<std::pair<QString, QString>> rows {
        { u"pg_terminate_backend"_s, u"pg_terminate_backend(pid)"_s },
        { u"pg_cancel_backend"_s, u"pg_cancel_backend(pid)"_s },
        { u"pg_signal_backend"_s, u"pg_signal_backend(pid, 15)"_s },
        { u"pg_reload_conf"_s, u"pg_reload_conf()"_s },
        { u"pg_rotate_logfile"_s, u"pg_rotate_logfile()"_s },
        { u"pg_switch_wal"_s, u"pg_switch_wal()"_s },
        { u"pg_promote"_s, u"pg_promote()"_s },
        { u"pg_wal_replay_pause"_s, u"pg_wal_replay_pause()"_s },
        { u"pg_wal_replay_resume"_s, u"pg_wal_replay_resume()"_s },
        { u"pg_backup_start"_s, u"pg_backup_start('x')"_s },
        { u"pg_backup_stop"_s, u"pg_backup_stop()"_s },
        { u"pg_start_backup"_s, u"pg_start_backup('x')"_s },
        { u"pg_stop_backup"_s, u"pg_stop_backup()"_s },
        { u"pg_create_"_s, u"pg_create_restore_point('x')"_s },
        { u"pg_drop_replication_slot"_s, u"pg_drop_replication_slot('s')"_s },
        { u"pg_copy_"_s, u"pg_copy_logical_replication_slot('a', 'b')"_s },
        { u"pg_replication_slot_advance"_s, u"pg_replication_slot_advance('s', '0/0')"_s },
        { u"pg_logical_slot_get_"_s, u"pg_logical_slot_get_changes('s', NULL, NULL)"_s },
        { u"pg_logical_emit_message"_s, u"pg_logical_emit_message(true, 'p', 'm')"_s },
        { u"pg_replication_origin_"_s, u"pg_replication_origin_create('o')"_s },
        { u"pg_sync_replication_slots"_s, u"pg_sync_replication_slots()"_s },
        { u"pg_log_backend_memory_contexts"_s, u"pg_log_backend_memory_contexts(pid)"_s },
        { u"pg_import_system_collations"_s, u"pg_import_system_collations('pg_catalog')"_s },
        { u"pg_advisory_"_s, u"pg_advisory_lock(1)"_s },
        { u"pg_try_advisory_"_s, u"pg_try_advisory_lock(1)"_s },
        { u"pg_stat_reset"_s, u"pg_stat_reset_shared('bgwriter')"_s },
        { u"pg_stat_statements_reset"_s, u"pg_stat_statements_reset()"_s },
        { u"set_config"_s, u"set_config('default_transaction_read_only', 'off', false)"_s },
        { u"pg_notify"_s, u"pg_notify('c', 'p')"_s },
        { u"nextval"_s, u"nextval('s')"_s },
        { u"setval"_s, u"setval('s', 1)"_s },
        { u"lo_"_s, u"lo_export(1, '/tmp/x')"_s },
        { u"lowrite"_s, u"lowrite(0, 'x')"_s },
        { u"loread"_s, u"loread(0, 1)"_s },
        { u"pg_read_file"_s, u"pg_read_file('/etc/passwd')"_s },
        { u"pg_read_binary_file"_s, u"pg_read_binary_file('/etc/passwd')"_s },
        { u"pg_file_"_s, u"pg_file_write('/tmp/x', 'y', false)"_s },
        { u"dblink"_s, u"dblink_exec('host=x', 'DELETE FROM t')"_s },
        { u"query_to_xml"_s, u"query_to_xml('COMMIT', true, true, '')"_s },
        { u"cursor_to_xml"_s, u"cursor_to_xml('c', 1, true, true, '')"_s },
        { u"ts_stat"_s, u"ts_stat('select 1')"_s },
        { u"ts_rewrite"_s, u"ts_rewrite('a'::tsquery, 'SELECT 1')"_s },
        { u"crosstab"_s, u"crosstab('select 1')"_s },
        { u"connectby"_s, u"connectby('t', 'id', 'parent', '1', 0)"_s },
    };
    for (const auto &[entry, call] : rows)
        QTest::newRow(qPrintable(call)) << entry << call;
}

void TestPgSqlGuard::refusedCalls()
{
    QFETCH(QString, entry);
    QFETCH(QString, call);
    m_tested << entry;
    const QString name = call.left(call.indexOf(u'('));
    // Plain, schema-qualified, quoted, upper case, behind a comment, in a sub-select.
    const QStringList spellings {
        u"SELECT "_s + call,
        u"select x from t where pg_catalog."_s + call + u" is not null"_s,
        u"SELECT \"%1\"%2"_s.arg(name, call.mid(name.size())),
        u"SELECT "_s + call.toUpper(),
        u"/* harmless */ select (select "_s + call + u")"_s,
    };
    for (const QString &sql : spellings) {
        const auto refused = refuseDashboardSql(sql);
        QVERIFY2(refused.has_value(), qPrintable(sql));
        QVERIFY2(refused->startsWith(u"calls %1(), which "_s.arg(name)), qPrintable(*refused));
        QVERIFY2(refused->endsWith(u"; dashboard queries run in Headroom's read-only monitoring "
                                   "session and may only read"_s),
                 qPrintable(*refused));
    }
}

void TestPgSqlGuard::everyListedFunctionIsTested()
{
    for (const RefusedFunction &function : Headroom::refusedFunctions())
        QVERIFY2(m_tested.contains(QString(function.name)), qPrintable(QString(function.name)));
    // Extensions' resets are caught by their naming habit, not a list entry.
    QVERIFY(refuseDashboardSql(u"select pg_qualstats_reset()"_s));
    QVERIFY(refuseDashboardSql(u"select pg_wait_sampling_reset_profile()"_s));
}

void TestPgSqlGuard::statementKinds_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QString>("keyword");
    QTest::newRow("set") << u"SET default_transaction_read_only = off"_s << u"SET"_s;
    QTest::newRow("commit behind a nested comment") << u"/* /* */ */ COMMIT"_s << u"COMMIT"_s;
    QTest::newRow("copy to program")
        << u"/* /* */ */ COPY (SELECT 1) TO PROGRAM 'touch /tmp/pwned'"_s << u"COPY"_s;
    QTest::newRow("delete") << u"DELETE FROM victim"_s << u"DELETE"_s;
    QTest::newRow("update") << u"update victim set x = 1"_s << u"UPDATE"_s;
    QTest::newRow("do") << u"DO $$ BEGIN PERFORM 1; END $$"_s << u"DO"_s;
    QTest::newRow("call") << u"call p()"_s << u"CALL"_s;
    QTest::newRow("explain analyze") << u"EXPLAIN ANALYZE DELETE FROM victim"_s << u"EXPLAIN"_s;
    QTest::newRow("string first") << u"'x'"_s << u"such"_s;
}

void TestPgSqlGuard::statementKinds()
{
    QFETCH(QString, sql);
    QFETCH(QString, keyword);
    QCOMPARE(refuseDashboardSql(sql),
             std::optional<QString>(u"%1 statements are not run: dashboard queries run in "
                                    "Headroom's read-only monitoring session"_s.arg(keyword)));
}

void TestPgSqlGuard::structureRefused_data()
{
    QTest::addColumn<QString>("sql");
    QTest::addColumn<QString>("refusal");
    // Closing the wrapper's sub-select early would put a UNION outside its limits.
    QTest::newRow("closes the sub-select")
        << u"SELECT repeat('x', 400000000) AS t) AS headroom_q UNION ALL SELECT * FROM (SELECT 'a'"_s
        << u"closes a parenthesis it did not open, at character 35"_s;
    QTest::newRow("left open") << u"SELECT (1"_s << u"leaves 1 parenthesis(es) open"_s;
    QTest::newRow("two statements") << u"SELECT 1; SELECT 2"_s
                                    << u"holds a \";\" at character 9: a dashboard query is one "
                                       "statement"_s;
    QTest::newRow("uescape behind a comment")
        << u"SELECT U&\"pg!005fterminate!005fbackend\" UESCAPE /**/ '!' (1)"_s
        << u"uses UESCAPE, which dashboard queries may not"_s;
    QTest::newRow("parentheses in strings do not count")
        << u"SELECT ')' AS a, (SELECT 1) AS b, '(' AS c; "_s
        << u"holds a \";\" at character 43: a dashboard query is one statement"_s;
}

void TestPgSqlGuard::structureRefused()
{
    QFETCH(QString, sql);
    QFETCH(QString, refusal);
    QCOMPARE(refuseDashboardSql(sql), std::optional<QString>(refusal));
}

void TestPgSqlGuard::queriesThatRun_data()
{
    QTest::addColumn<QString>("sql");
    QTest::newRow("select") << u"SELECT datname, xact_commit FROM pg_stat_database"_s;
    QTest::newRow("with") << u"WITH a AS (SELECT 1 AS n) SELECT n FROM a"_s;
    QTest::newRow("values") << u"VALUES (1)"_s;
    QTest::newRow("table") << u"TABLE pg_stat_bgwriter"_s;
    QTest::newRow("parenthesised") << u"(SELECT 1)"_s;
    QTest::newRow("stats_reset is a column") << u"SELECT stats_reset FROM pg_stat_database"_s;
    QTest::newRow("refused names inside strings")
        << u"SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%pg_terminate_backend%'"_s;
    QTest::newRow("wal size") << u"SELECT sum(size) FROM pg_ls_waldir()"_s;
}

void TestPgSqlGuard::queriesThatRun()
{
    QFETCH(QString, sql);
    QCOMPARE(refuseDashboardSql(sql), std::nullopt);
}

void TestPgSqlGuard::wrappers()
{
    // A trailing -- comment cannot swallow the limits: they start on a line of their own.
    const QByteArray limited = limitedQuerySql(u"SELECT 1 -- note"_s, 1001, 8192);
    QVERIFY(limited.startsWith("SELECT headroom_q.* FROM (\nSELECT 1 -- note\n) AS headroom_q "));
    QVERIFY(limited.endsWith(" LIMIT 1001"));
    QVERIFY(limited.contains("octet_length(headroom_q.*::text) <= 8192"));
    // A %-sequence in the dashboard's SQL is sent as written.
    QVERIFY(limitedQuerySql(u"SELECT '%1 %3'"_s, 10, 10).contains("SELECT '%1 %3'"));
    QCOMPARE(probeSql(u"SELECT 1 -- x"_s),
             QByteArray("SELECT count(*) FROM (\nSELECT 1 -- x\n) AS headroom_probe"));
}

void TestPgSqlGuard::dashboardConninfo_data()
{
    QTest::addColumn<QString>("conninfo");
    QTest::addColumn<QString>("refusal"); // start of the reason; empty: allowed
    const QString home = QDir::homePath();
    QTest::newRow("plain") << u"host=db1 dbname=erp user=monitor"_s << QString();
    QTest::newRow("service") << u"service=orders"_s << QString();
    QTest::newRow("uri") << u"postgresql://monitor@db1/erp"_s << QString();
    QTest::newRow("hostaddr") << u"host=prod-db.corp hostaddr=192.0.2.1 user=postgres"_s
                              << u"hostaddr is not taken from a dashboard file"_s;
    QTest::newRow("hostaddr in uri") << u"postgresql://db1/erp?hostaddr=192.0.2.1"_s
                                     << u"hostaddr is not taken from a dashboard file"_s;
    QTest::newRow("passfile") << u"host=db1 passfile=/tmp/x"_s
                              << u"passfile is not taken from a dashboard file"_s;
    QTest::newRow("gssdelegation")
        << u"host=db1 gssdelegation=1"_s << u"gssdelegation is not taken from a dashboard file"_s;
    QTest::newRow("options") << u"host=db1 options='-c standard_conforming_strings=off'"_s
                             << u"options is not taken from a dashboard file"_s;
    QTest::newRow("gssdelegation off") << u"host=db1 gssdelegation=0"_s << QString();
    QTest::newRow("sslkey elsewhere") << u"host=db1 sslkey=/etc/ssl/private/x.key"_s
                                      << u"sslkey from a dashboard file must be a file in "
                                         "~/.postgresql"_s;
    QTest::newRow("sslcert escaping the folder")
        << u"host=db1 sslcert=%1/.postgresql/../.ssh/id_rsa"_s.arg(home)
        << u"sslcert from a dashboard file must be a file in ~/.postgresql"_s;
    QTest::newRow("sslrootcert system") << u"host=db1 sslrootcert=system"_s << QString();
}

void TestPgSqlGuard::dashboardConninfo()
{
    QFETCH(QString, conninfo);
    QFETCH(QString, refusal);
    const auto refused = refuseDashboardConninfo(conninfo);
    if (refusal.isEmpty()) {
        QVERIFY2(!refused, qPrintable(refused.value_or(QString())));
        return;
    }
    QVERIFY(refused);
    QVERIFY2(refused->startsWith(refusal), qPrintable(*refused));
    QVERIFY2(refused->endsWith(u"put it in a service file (~/.pg_service.conf) or give the "
                               "connection string yourself with --var"_s),
             qPrintable(*refused));
}

void TestPgSqlGuard::statementTexts_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("label");
    QTest::newRow("alter role") << u"ALTER ROLE app PASSWORD 'secret'"_s
                                << u"ALTER ROLE app PASSWORD '***'"_s;
    QTest::newRow("create user, E string")
        << u"create user bob with login password E'it\\'s' valid until '2030-01-01'"_s
        << u"create user bob with login password '***' valid until '***'"_s;
    QTest::newRow("user mapping")
        << u"CREATE USER MAPPING FOR bob SERVER s OPTIONS (user 'b', password 'p')"_s
        << u"CREATE USER MAPPING FOR bob SERVER s OPTIONS (user '***', password '***')"_s;
    QTest::newRow("dollar quoted")
        << u"ALTER ROLE app PASSWORD $x$secret$x$"_s << u"ALTER ROLE app PASSWORD '***'"_s;
    QTest::newRow("dblink conninfo in a query")
        << u"SELECT * FROM dblink('host=h password=p', 'select 1') AS t(a int)"_s
        << u"SELECT * FROM dblink('***', 'select 1') AS t(a int)"_s;
    QTest::newRow("plain query kept") << u"SELECT * FROM orders WHERE status = 'open'"_s
                                      << u"SELECT * FROM orders WHERE status = 'open'"_s;
    QTest::newRow("cut inside a literal")
        << u"ALTER ROLE app PASSWORD 'sec"_s << u"ALTER ROLE app PASSWORD ***"_s;
    QTest::newRow("set password_encryption")
        << u"SET password_encryption = 'md5'"_s << u"SET password_encryption = '***'"_s;
    // People put tokens in comments; a comment reads as one space.
    QTest::newRow("block comment")
        << u"/* api_key=sk-live-123 */ SELECT * FROM t WHERE a = 'open' /* x */"_s
        << u" SELECT * FROM t WHERE a = 'open' "_s;
    QTest::newRow("nested comment between tokens")
        << u"SELECT/* a /* token=t0k */ b */1"_s << u"SELECT 1"_s;
    QTest::newRow("line comment") << u"SELECT 1 -- token=t0k\nFROM t"_s << u"SELECT 1 FROM t"_s;
    QTest::newRow("comment marks inside literals stay")
        << u"SELECT '/* not a comment */', \"--x\" FROM t"_s
        << u"SELECT '/* not a comment */', \"--x\" FROM t"_s;
    QTest::newRow("unclosed comment") << u"SELECT 1 /* token=t0k"_s << u"SELECT 1 ***"_s;
}

void TestPgSqlGuard::statementTexts()
{
    QFETCH(QString, text);
    QFETCH(QString, label);
    QCOMPARE(redactStatementText(text), label);
}

QTEST_GUILESS_MAIN(TestPgSqlGuard)
#include "tst_pgsqlguard.moc"
