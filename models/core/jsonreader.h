// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

// The one reader of JSON documents a user or a plugin hands to Headroom (dashboards, alert
// rules, plugin options, panel options). Every refusal names the field as a path below
// the document's root and says why, in one wording everywhere:
//   panels[3].options.columns[1]: must be a string, got 7
// Every read* returns false on a refusal and records it (the latest one), so a caller
// writes `if (!r.readString(...) || !r.readInt(...)) return ...;`.
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>
#include <limits>
#include <optional>

namespace Headroom {

struct JsonReadError
{
    QString field; // a path like panels[2].series[0].metric; empty for the whole document
    QString reason;
    // "field: reason", or the reason alone for the whole document.
    QString toString() const;
};

class JsonReader
{
public:
    // maxStringLength: what readString allows when a call does not say.
    explicit JsonReader(qsizetype maxStringLength = std::numeric_limits<qsizetype>::max());

    // "a.b", "a[3]"; a key on an empty path is the key alone.
    static QString joinPath(const QString &prefix, const QString &key);
    static QString indexPath(const QString &prefix, qsizetype index);
    // The "got ..." part of a type error: scalars as JSON (cut at 80 characters),
    // containers by kind.
    static QString describe(const QJsonValue &value);
    // 1-based line and column (in characters) of a byte offset into UTF-8 text.
    static QString lineAndColumn(const QByteArray &data, qsizetype offset);

    // The document's top-level object; on a syntax error, says where and what (with a
    // hint for a missing comma); an empty document or a top level that is not an
    // object is refused too.
    std::optional<QJsonObject> parseObject(const QByteArray &json);

    const JsonReadError &error() const { return m_error; }
    bool failed() const { return m_failed; }

    // Records the error and returns false.
    bool fail(const QString &field, const QString &reason);
    // "must be <expected>, got <describe(value)>".
    bool failType(const QString &field, const QString &expected, const QJsonValue &value);

    // `key` of `object` into *out: Undefined when it is absent, which is an error when
    // it is required; an error when it is present with another type than `type`.
    bool readMember(const QJsonObject &object, const QString &key, const QString &path,
                    bool required, QJsonValue::Type type, const QString &expected, QJsonValue *out);
    // Absent and not required: *out is left as it is (the caller's default).
    bool readString(const QJsonObject &object, const QString &key, const QString &path,
                    bool required, QString *out, std::optional<qsizetype> maxLength = {});
    bool readNonEmptyString(const QJsonObject &object, const QString &key, const QString &path,
                            QString *out, std::optional<qsizetype> maxLength = {});
    bool readBool(const QJsonObject &object, const QString &key, const QString &path, bool required,
                  bool *out);
    // A finite number; absent and not required leaves *out as it is.
    bool readNumber(const QJsonObject &object, const QString &key, const QString &path,
                    bool required, double *out);
    // A whole number in [minimum, maximum]; absent gives defaultValue, or an error
    // without one.
    bool readInt(const QJsonObject &object, const QString &key, const QString &path, int minimum,
                 std::optional<int> defaultValue, int *out,
                 int maximum = std::numeric_limits<int>::max());
    // Absent: an empty array or object (an error when required).
    bool readArray(const QJsonObject &object, const QString &key, const QString &path,
                   bool required, QJsonArray *out);
    bool readObject(const QJsonObject &object, const QString &key, const QString &path,
                    QJsonObject *out);
    // An array element (or any value at `path`) that must be an object.
    bool elementObject(const QJsonValue &value, const QString &path, QJsonObject *out);

    bool checkLength(const QString &text, const QString &field, qsizetype maxLength);
    // `what` in the plural: "must list at most 200 sources, got 201".
    bool checkCount(qsizetype count, qsizetype maximum, const QString &field, const QString &what);
    // A Prometheus label name, [A-Za-z_][A-Za-z0-9_]* ("instance").
    bool checkLabelName(const QString &name, const QString &field);
    // Refuses a key of `object` that is not in `known`, so that typos do not go unnoticed:
    // "unknown field (expected warning, critical, higherIsWorse)". `what` names the kind
    // of key in the message ("field", "option", "column").
    bool checkKnownKeys(const QJsonObject &object, const QString &path, const QStringList &known,
                        const QString &what = QStringLiteral("field"));

private:
    qsizetype m_maxStringLength;
    JsonReadError m_error;
    bool m_failed = false;
};

} // namespace Headroom
