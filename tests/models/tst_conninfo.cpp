// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// Connection strings without their passwords (conninfo.h), as a saved dashboard writes
// them: every keyword/value and URI spelling of a password is dropped, everything else
// is kept as typed. Masking for messages is tested with the collector (tst_postgresunit).
#include "core/conninfo.h"

#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

using Pairs = QList<std::pair<QString, QString>>;
Q_DECLARE_METATYPE(Pairs)

class TestConninfo : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void withoutPassword_data();
    void withoutPassword();
    void keywords_data();
    void keywords();
    void pairsReadBack();
};

void TestConninfo::withoutPassword_data()
{
    QTest::addColumn<QString>("conninfo");
    QTest::addColumn<QString>("expected");

    QTest::newRow("empty") << QString() << QString();
    QTest::newRow("keyword, none, kept as typed")
        << u"host = db  dbname=erp"_s << u"host = db  dbname=erp"_s;
    QTest::newRow("keyword, in the middle")
        << u"host=db password=secret user=x"_s << u"host=db user=x"_s;
    QTest::newRow("keyword, first") << u"password=secret host=db"_s << u"host=db"_s;
    QTest::newRow("keyword, last") << u"host=db password=secret"_s << u"host=db"_s;
    QTest::newRow("keyword, alone") << u"password=secret"_s << QString();
    QTest::newRow("keyword, spaces around =")
        << u"host = db password = secret port=5432"_s << u"host = db port=5432"_s;
    QTest::newRow("keyword, quoted with escapes")
        << u"password='s e\\'cret' host=db"_s << u"host=db"_s;
    QTest::newRow("keyword, backslash in unquoted value")
        << u"password=sec\\ ret host=db"_s << u"host=db"_s;
    QTest::newRow("keyword, any case") << u"host=db PassWord=secret"_s << u"host=db"_s;
    QTest::newRow("keyword, sslpassword") << u"sslpassword=secret sslkey=/k"_s << u"sslkey=/k"_s;
    QTest::newRow("keyword, two passwords")
        << u"password=secret host=db sslpassword=secret"_s << u"host=db"_s;
    QTest::newRow("keyword, unterminated quote")
        << u"host=db password='secret user=x"_s << u"host=db"_s;
    QTest::newRow("keyword, missing =") << u"host=db password secret"_s << u"host=db"_s;
    QTest::newRow("keyword, password as another key's value")
        << u"application_name=password host=db"_s << u"application_name=password host=db"_s;
    QTest::newRow("uri, none") << u"postgresql://u@db/erp?sslmode=require"_s
                               << u"postgresql://u@db/erp?sslmode=require"_s;
    QTest::newRow("uri, user info")
        << u"postgresql://u:secret@db:5432/erp"_s << u"postgresql://u@db:5432/erp"_s;
    QTest::newRow("uri, postgres scheme, multi-host")
        << u"postgres://u:secret@h1:5432,h2:5433/erp"_s << u"postgres://u@h1:5432,h2:5433/erp"_s;
    QTest::newRow("uri, unescaped @ and / in password")
        << u"postgresql://u:sec@r/et@db/erp"_s << u"postgresql://u@db/erp"_s;
    QTest::newRow("uri, query parameter in the middle")
        << u"postgresql://db/erp?user=u&password=secret&sslmode=require"_s
        << u"postgresql://db/erp?user=u&sslmode=require"_s;
    QTest::newRow("uri, query parameter first")
        << u"postgresql://db/erp?password=secret&sslmode=require"_s
        << u"postgresql://db/erp?sslmode=require"_s;
    QTest::newRow("uri, query parameter last")
        << u"postgresql://db/erp?sslmode=require&password=secret"_s
        << u"postgresql://db/erp?sslmode=require"_s;
    QTest::newRow("uri, only parameter")
        << u"postgresql://db?password=secret"_s << u"postgresql://db"_s;
    QTest::newRow("uri, neighbouring password parameters")
        << u"postgresql://db?password=secret&sslpassword=secret"_s << u"postgresql://db"_s;
    QTest::newRow("uri, percent-encoded key")
        << u"postgresql://db?pass%77ord=secret&user=u"_s << u"postgresql://db?user=u"_s;
    QTest::newRow("uri, user info and parameter")
        << u"postgresql://u:secret@db/erp?password=secret"_s << u"postgresql://u@db/erp"_s;
}

void TestConninfo::withoutPassword()
{
    QFETCH(QString, conninfo);
    QFETCH(QString, expected);
    const QString stripped = conninfoWithoutPassword(conninfo);
    QCOMPARE(stripped, expected);
    QVERIFY(!stripped.contains("secret"_L1));
    // The same reading decides what a password is: none is left, and a string that had
    // none comes back as it was.
    QVERIFY(!conninfoHasPassword(stripped));
    if (!conninfoHasPassword(conninfo))
        QCOMPARE(stripped, conninfo);
}

void TestConninfo::keywords_data()
{
    QTest::addColumn<QString>("conninfo");
    QTest::addColumn<bool>("parses");
    QTest::addColumn<Pairs>("pairs");
    QTest::newRow("plain") << u"host=db1 port=5433"_s << true
                           << Pairs { { u"host"_s, u"db1"_s }, { u"port"_s, u"5433"_s } };
    QTest::newRow("blanks around =")
        << u"  host = db1 "_s << true << Pairs { { u"host"_s, u"db1"_s } };
    QTest::newRow("quoted with escapes")
        << uR"(dbname='my \'db\'' user=a\\b)"_s << true
        << Pairs { { u"dbname"_s, u"my 'db'"_s }, { u"user"_s, uR"(a\b)"_s } };
    QTest::newRow("dollar") << u"host=${h} dbname=x$y"_s << true
                            << Pairs { { u"host"_s, u"${h}"_s }, { u"dbname"_s, u"x$y"_s } };
    QTest::newRow("empty") << QString() << true << Pairs {};
    QTest::newRow("a variable alone") << u"${pg}"_s << false << Pairs {};
    QTest::newRow("unclosed quote") << u"host='db1"_s << false << Pairs {};
    QTest::newRow("uri") << u"postgresql://u@db/erp"_s << false << Pairs {};
}

void TestConninfo::keywords()
{
    QFETCH(QString, conninfo);
    QFETCH(bool, parses);
    QFETCH(Pairs, pairs);
    const auto read = conninfoKeywords(conninfo);
    QCOMPARE(read.has_value(), parses);
    if (parses)
        QCOMPARE(*read, pairs);
}

// Whatever a field holds, the pair written reads back as that one pair: a value can
// never add a keyword (a password, a hostaddr) of its own.
void TestConninfo::pairsReadBack()
{
    for (const QString &value :
         { u"db1"_s, u"my db"_s, uR"(o'neil)"_s, uR"(a\b)"_s, u"x password=evil"_s,
           u"' hostaddr=1.2.3.4 '"_s, u"$x"_s, uR"(tab\there)"_s, QString() }) {
        const QString pair = conninfoPair(u"dbname"_s, value);
        const auto read = conninfoKeywords(pair);
        QVERIFY2(read && read->size() == 1, qPrintable(pair));
        QCOMPARE(read->at(0).first, u"dbname"_s);
        QCOMPARE(read->at(0).second, value);
        QVERIFY(!conninfoHasPassword(pair + u" host=x"_s));
    }
}

QTEST_GUILESS_MAIN(TestConninfo)
#include "tst_conninfo.moc"
