// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The plugins' config schemas, enforced (collector/configschema.h): types and lists of
// types, required members, numeric bounds, unknown keys, nested items and objects, the
// message text; schemas that cannot be enforced; the registry's checkConfig.
#include "collector/collectorregistry.h"
#include "collector/configschema.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

using namespace Headroom;
using namespace Qt::StringLiterals;

namespace {

QJsonObject object(const QByteArray &json)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("bad test JSON: %s: %s", json.constData(), qPrintable(error.errorString()));
    return document.object();
}

// The value under "v" of a one-member object: any JSON value, written as JSON.
QJsonValue jsonValue(const QByteArray &json)
{
    return object("{\"v\": " + json + '}').value(u"v"_s);
}

// postgres.json's shape in small: what the shipped schemas use.
const QByteArray PluginSchema = R"({
    "type": "object",
    "properties": {
        "url": {"type": "string", "trust": "target", "description": "d", "default": ""},
        "topStatements": {"type": ["integer", "string"], "minimum": 1, "maximum": 100},
        "statements": {"type": ["boolean", "string"]},
        "probe": {"type": ["object", "boolean"],
                  "properties": {"sql": {"type": "string"}}, "additionalProperties": false},
        "interfaces": {"type": "array", "items": {"type": "string"}},
        "speedMbps": {"type": "object",
                      "additionalProperties": {"type": "number", "exclusiveMinimum": 0}},
        "shardSets": {"type": "array", "items": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "pattern": "^[a-z][a-z0-9_]{0,62}$"},
                "tables": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                "capacity": {"type": ["number", "string"]}
            },
            "required": ["name", "tables"]
        }},
        "anything": {}
    },
    "required": ["url"],
    "additionalProperties": false
})";

} // namespace

class TestConfigSchema : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void check_data();
    void check();
    void bounds_data();
    void bounds();
    void brokenSchema_data();
    void brokenSchema();
    void registry();
};

void TestConfigSchema::check_data()
{
    QTest::addColumn<QByteArray>("config"); // checked against PluginSchema
    QTest::addColumn<QString>("error"); // empty: conforms
    QTest::newRow("minimal") << QByteArray(R"({"url": "u"})") << QString();
    QTest::newRow("everything") << QByteArray(R"({"url": "u", "topStatements": 20,
        "statements": "on", "probe": {"sql": "select 1"}, "interfaces": ["eth0"],
        "speedMbps": {"eth0": 1000}, "anything": [1, {"x": null}],
        "shardSets": [{"name": "t", "tables": ["a", "b"], "capacity": "${cap}"}]})")
                                << QString();
    QTest::newRow("a number as a string (a variable)")
        << QByteArray(R"({"url": "u", "topStatements": "500"})") << QString();
    QTest::newRow("probe false") << QByteArray(R"({"url": "u", "probe": false})") << QString();
    QTest::newRow("null is absent")
        << QByteArray(R"({"url": "u", "topStatements": null})") << QString();
    QTest::newRow("integer as 20.0")
        << QByteArray(R"({"url": "u", "topStatements": 20.0})") << QString();

    QTest::newRow("the issue's example")
        << QByteArray(R"({"url": "u", "topStatements": 500})")
        << u"sources[2].config.topStatements: must be an integer from 1 to 100, got 500"_s;
    QTest::newRow("below the minimum")
        << QByteArray(R"({"url": "u", "topStatements": 0})")
        << u"sources[2].config.topStatements: must be an integer from 1 to 100, got 0"_s;
    QTest::newRow("not an integer")
        << QByteArray(R"({"url": "u", "topStatements": 2.5})")
        << u"sources[2].config.topStatements: must be an integer from 1 to 100 or a string, got 2.5"_s;
    QTest::newRow("integer or string, got a bool")
        << QByteArray(R"({"url": "u", "topStatements": true})")
        << u"sources[2].config.topStatements: must be an integer from 1 to 100 or a string, got true"_s;
    QTest::newRow("boolean or string")
        << QByteArray(R"({"url": "u", "statements": 1})")
        << u"sources[2].config.statements: must be true, false or a string, got 1"_s;
    QTest::newRow("object or boolean")
        << QByteArray(R"({"url": "u", "probe": "off"})")
        << u"sources[2].config.probe: must be an object, true or false, got \"off\""_s;
    QTest::newRow("string") << QByteArray(R"({"url": 9100})")
                            << u"sources[2].config.url: must be a string, got 9100"_s;
    QTest::newRow("required") << QByteArray(R"({})") << u"sources[2].config.url: is required"_s;
    QTest::newRow("required, null")
        << QByteArray(R"({"url": null})") << u"sources[2].config.url: is required"_s;
    QTest::newRow("unknown option, named before the missing one")
        << QByteArray(R"({"ulr": "u"})")
        << u"sources[2].config.ulr: unknown option (expected anything, interfaces, probe, "
           "shardSets, speedMbps, statements, topStatements, url)"_s;
    QTest::newRow("unknown key of a nested object")
        << QByteArray(R"({"url": "u", "probe": {"sql": "x", "count": 1}})")
        << u"sources[2].config.probe.count: unknown field (expected sql)"_s;
    QTest::newRow("item of an array")
        << QByteArray(R"({"url": "u", "interfaces": ["eth0", 5]})")
        << u"sources[2].config.interfaces[1]: must be a string, got 5"_s;
    QTest::newRow("array expected")
        << QByteArray(R"({"url": "u", "interfaces": "eth0"})")
        << u"sources[2].config.interfaces: must be an array, got \"eth0\""_s;
    QTest::newRow("additionalProperties as a schema")
        << QByteArray(R"({"url": "u", "speedMbps": {"eth0": 0}})")
        << u"sources[2].config.speedMbps.eth0: must be a positive number, got 0"_s;
    QTest::newRow("nested items: required")
        << QByteArray(
               R"({"url": "u", "shardSets": [{"name": "a", "tables": ["t"]}, {"name": "b"}]})")
        << u"sources[2].config.shardSets[1].tables: is required"_s;
    QTest::newRow("nested items: minItems")
        << QByteArray(R"({"url": "u", "shardSets": [{"name": "a", "tables": []}]})")
        << u"sources[2].config.shardSets[0].tables: must not be empty"_s;
    QTest::newRow("nested items: unknown key (the default is false)")
        << QByteArray(R"({"url": "u", "shardSets": [{"name": "a", "tables": ["t"], "cap": 1}]})")
        << u"sources[2].config.shardSets[0].cap: unknown field (expected capacity, name, tables)"_s;
    QTest::newRow("nested items: pattern")
        << QByteArray(R"({"url": "u", "shardSets": [{"name": "Tenants", "tables": ["t"]}]})")
        << u"sources[2].config.shardSets[0].name: must be a text matching "
           "^[a-z][a-z0-9_]{0,62}$, got \"Tenants\""_s;
    QTest::newRow("nested items: element type")
        << QByteArray(R"({"url": "u", "shardSets": [7]})")
        << u"sources[2].config.shardSets[0]: must be an object, got 7"_s;
}

void TestConfigSchema::check()
{
    QFETCH(QByteArray, config);
    QFETCH(QString, error);
    JsonReadError problem;
    const auto schema = ConfigSchema::fromJson(object(PluginSchema), u"config"_s, &problem);
    QVERIFY2(schema, qPrintable(problem.toString()));
    const auto refused = schema->check(object(config), u"sources[2].config"_s);
    QCOMPARE(refused ? refused->toString() : QString(), error);
}

void TestConfigSchema::bounds_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QString>("error"); // empty: conforms
    QTest::newRow("integer from to")
        << QByteArray(R"({"type": "integer", "minimum": 1, "maximum": 3})") << QByteArray("4")
        << u"v: must be an integer from 1 to 3, got 4"_s;
    QTest::newRow("integer, in range")
        << QByteArray(R"({"type": "integer", "minimum": 1, "maximum": 3})") << QByteArray("3")
        << QString();
    QTest::newRow("positive integer")
        << QByteArray(R"({"type": "integer", "minimum": 1})") << QByteArray("0")
        << u"v: must be a positive integer, got 0"_s;
    QTest::newRow("non-negative number")
        << QByteArray(R"({"type": "number", "minimum": 0})") << QByteArray("-0.5")
        << u"v: must be a non-negative number, got -0.5"_s;
    QTest::newRow("at least") << QByteArray(R"({"type": "number", "minimum": 2.5})")
                              << QByteArray("2") << u"v: must be a number of at least 2.5, got 2"_s;
    QTest::newRow("at most") << QByteArray(R"({"type": "integer", "maximum": 10})")
                             << QByteArray("11")
                             << u"v: must be an integer of at most 10, got 11"_s;
    QTest::newRow("above and below")
        << QByteArray(R"({"type": "number", "exclusiveMinimum": 1, "exclusiveMaximum": 2})")
        << QByteArray("2") << u"v: must be a number above 1 and below 2, got 2"_s;
    QTest::newRow("number from to, a fraction")
        << QByteArray(R"({"type": "number", "minimum": 0.5, "maximum": 2})") << QByteArray("1.5")
        << QString();
    QTest::newRow("integer") << QByteArray(R"({"type": "integer"})") << QByteArray("1.5")
                             << u"v: must be an integer, got 1.5"_s;
    QTest::newRow("boolean") << QByteArray(R"({"type": "boolean"})") << QByteArray("\"yes\"")
                             << u"v: must be true or false, got \"yes\""_s;
    QTest::newRow("null allowed") << QByteArray(R"({"type": ["string", "null"]})")
                                  << QByteArray("null") << QString();
    QTest::newRow("null refused") << QByteArray(R"({"type": "string"})") << QByteArray("null")
                                  << u"v: must be a string, got null"_s;
    QTest::newRow("enum") << QByteArray(R"({"enum": ["a", "b", 3]})") << QByteArray("\"c\"")
                          << u"v: must be one of \"a\", \"b\" or 3, got \"c\""_s;
    QTest::newRow("enum, listed") << QByteArray(R"({"enum": ["a", "b"]})") << QByteArray("\"b\"")
                                  << QString();
    QTest::newRow("maxItems") << QByteArray(R"({"type": "array", "maxItems": 2})")
                              << QByteArray("[1, 2, 3]")
                              << u"v: must list at most 2 items, got 3"_s;
    QTest::newRow("minItems") << QByteArray(R"({"type": "array", "minItems": 2})")
                              << QByteArray("[1]") << u"v: must list at least 2 items, got 1"_s;
    QTest::newRow("an object that takes no keys")
        << QByteArray(R"({"type": "object"})") << QByteArray(R"({"a": 1})")
        << u"v.a: unknown option (none are allowed here)"_s;
    QTest::newRow("additionalProperties true")
        << QByteArray(R"({"type": "object", "additionalProperties": true})")
        << QByteArray(R"({"a": 1})") << QString();
    QTest::newRow("no schema: anything")
        << QByteArray("{}") << QByteArray(R"({"a": [1]})") << QString();
    QTest::newRow("pattern is a search") << QByteArray(R"({"type": "string", "pattern": "b+"})")
                                         << QByteArray("\"abbc\"") << QString();
}

void TestConfigSchema::bounds()
{
    QFETCH(QByteArray, schema);
    QFETCH(QByteArray, value);
    QFETCH(QString, error);
    JsonReadError problem;
    const auto read = ConfigSchema::fromJson(object(schema), u"config"_s, &problem);
    QVERIFY2(read, qPrintable(problem.toString()));
    const auto refused = read->check(jsonValue(value), u"v"_s);
    QCOMPARE(refused ? refused->toString() : QString(), error);
}

void TestConfigSchema::brokenSchema_data()
{
    QTest::addColumn<QByteArray>("schema");
    QTest::addColumn<QString>("error"); // the start of the problem
    QTest::newRow("unknown type")
        << QByteArray(R"({"type": "strng"})")
        << u"config.type: must be a type name (string, integer, number, boolean, array, "
           "object, null) or a list of them, got \"strng\""_s;
    QTest::newRow("unknown type in a list")
        << QByteArray(R"({"properties": {"a": {"type": ["string", "int"]}}})")
        << u"config.properties.a.type[1]: must be a type name"_s;
    QTest::newRow("a keyword not enforced")
        << QByteArray(R"({"properties": {"url": {"type": "string", "format": "uri"}}})")
        << u"config.properties.url.format: unknown schema keyword (expected type, properties, "_s;
    QTest::newRow("bound not a number")
        << QByteArray(R"({"properties": {"n": {"minimum": "1"}}})")
        << u"config.properties.n.minimum: must be a number, got \"1\""_s;
    QTest::newRow("property schema not an object")
        << QByteArray(R"({"properties": {"n": "integer"}})")
        << u"config.properties.n: must be an object, got \"integer\""_s;
    QTest::newRow("required not names") << QByteArray(R"({"required": ["a", 1]})")
                                        << u"config.required[1]: must be a property name, got 1"_s;
    QTest::newRow("bad pattern") << QByteArray(R"({"pattern": "(a"})")
                                 << u"config.pattern: is not a valid regular expression: "_s;
    QTest::newRow("items") << QByteArray(R"({"items": [{"type": "string"}]})")
                           << u"config.items: must be an object, got an array"_s;
    QTest::newRow("minItems") << QByteArray(R"({"minItems": -1})")
                              << u"config.minItems: must be a non-negative integer, got -1"_s;
    QTest::newRow("empty enum") << QByteArray(R"({"enum": []})")
                                << u"config.enum: must not be empty"_s;
    QTest::newRow("additionalProperties")
        << QByteArray(R"({"additionalProperties": "no"})")
        << u"config.additionalProperties: must be an object, got \"no\""_s;
}

void TestConfigSchema::brokenSchema()
{
    QFETCH(QByteArray, schema);
    QFETCH(QString, error);
    JsonReadError problem;
    QVERIFY(!ConfigSchema::fromJson(object(schema), u"config"_s, &problem));
    QVERIFY2(problem.toString().startsWith(error), qPrintable(problem.toString()));
}

void TestConfigSchema::registry()
{
    CollectorRegistry registry;
    CollectorPluginInfo checked { u"checked"_s, u"Checked"_s, {}, object(PluginSchema), {} };
    CollectorPluginInfo open { u"open"_s, u"Open"_s, {}, {}, {} };
    CollectorPluginInfo broken { u"broken"_s, u"Broken"_s, {}, object(R"({"type": "text"})"), {} };
    registry.registerFactory(checked, nullptr);
    registry.registerFactory(open, nullptr);
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"config schema"_s));
    registry.registerFactory(broken, nullptr);

    const QString path = u"sources[0].config"_s;
    QVERIFY(!registry.checkConfig(u"checked"_s, object(R"({"url": "u"})"), path));
    const auto refused = registry.checkConfig(u"checked"_s, object(R"({"url": 1})"), path);
    QVERIFY(refused);
    QCOMPARE(refused->field, u"sources[0].config.url"_s);
    QCOMPARE(refused->reason, u"must be a string, got 1"_s);
    // No schema, or no such plugin (the caller says so): nothing to refuse.
    QVERIFY(!registry.checkConfig(u"open"_s, object(R"({"x": 1})"), path));
    QVERIFY(!registry.checkConfig(u"nope"_s, object(R"({"x": 1})"), path));
    // A schema that cannot be enforced refuses every config rather than none.
    const auto unchecked = registry.checkConfig(u"broken"_s, object("{}"), path);
    QVERIFY(unchecked);
    QCOMPARE(unchecked->toString(),
             u"sources[0].config: cannot be checked: the plugin's config.type: must be a type "
             "name (string, integer, number, boolean, array, object, null) or a list of them, "
             "got \"text\""_s);
}

QTEST_GUILESS_MAIN(TestConfigSchema)
#include "tst_configschema.moc"
