// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "core/jsonreader.h"

#include <QJsonDocument>
#include <QJsonParseError>
#include <QRegularExpression>
#include <cmath>

namespace Headroom {

using namespace Qt::StringLiterals;

QString JsonReadError::toString() const
{
    return field.isEmpty() ? reason : field + u": "_s + reason;
}

JsonReader::JsonReader(qsizetype maxStringLength)
    : m_maxStringLength(maxStringLength)
{
}

QString JsonReader::joinPath(const QString &prefix, const QString &key)
{
    return prefix.isEmpty() ? key : prefix + u'.' + key;
}

QString JsonReader::indexPath(const QString &prefix, qsizetype index)
{
    return prefix + u'[' + QString::number(index) + u']';
}

QString JsonReader::describe(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::Object:
        return u"an object"_s;
    case QJsonValue::Array:
        return u"an array"_s;
    case QJsonValue::Undefined:
        return u"nothing"_s;
    default:
        break;
    }
    const QByteArray json = QJsonDocument(QJsonArray { value }).toJson(QJsonDocument::Compact);
    QString text = QString::fromUtf8(json.mid(1, json.size() - 2));
    if (text.size() > 80)
        text = text.left(77) + u"...";
    return text;
}

QString JsonReader::lineAndColumn(const QByteArray &data, qsizetype offset)
{
    offset = qBound<qsizetype>(0, offset, data.size());
    int line = 1;
    int column = 1;
    for (qsizetype i = 0; i < offset; ++i) {
        const auto byte = static_cast<unsigned char>(data[i]);
        if (byte == '\n') {
            ++line;
            column = 1;
        } else if ((byte & 0xC0) != 0x80) { // not a UTF-8 continuation byte
            ++column;
        }
    }
    return u"line %1, column %2"_s.arg(line).arg(column);
}

std::optional<QJsonObject> JsonReader::parseObject(const QByteArray &json)
{
    if (json.trimmed().isEmpty()) {
        fail(QString(), u"the file is empty"_s);
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        QString what = parseError.errorString();
        // Qt reports a missing comma between members or elements this way.
        if (parseError.error == QJsonParseError::UnterminatedObject)
            what += u" (a missing comma or closing brace?)";
        else if (parseError.error == QJsonParseError::UnterminatedArray)
            what += u" (a missing comma or closing bracket?)";
        fail(QString(),
             u"JSON syntax error at "_s + lineAndColumn(json, parseError.offset) + u": "_s + what);
        return std::nullopt;
    }
    if (!document.isObject()) {
        fail(QString(),
             u"the top level must be a JSON object, got "_s
                 + (document.isArray() ? u"an array"_s : u"a scalar"_s));
        return std::nullopt;
    }
    return document.object();
}

bool JsonReader::fail(const QString &field, const QString &reason)
{
    m_error = JsonReadError { field, reason };
    m_failed = true;
    return false;
}

bool JsonReader::failType(const QString &field, const QString &expected, const QJsonValue &value)
{
    return fail(field, u"must be "_s + expected + u", got "_s + describe(value));
}

bool JsonReader::readMember(const QJsonObject &object, const QString &key, const QString &path,
                            bool required, QJsonValue::Type type, const QString &expected,
                            QJsonValue *out)
{
    *out = object.value(key);
    if (out->isUndefined())
        return !required || fail(joinPath(path, key), u"is required"_s);
    if (out->type() != type)
        return failType(joinPath(path, key), expected, *out);
    return true;
}

bool JsonReader::readString(const QJsonObject &object, const QString &key, const QString &path,
                            bool required, QString *out, std::optional<qsizetype> maxLength)
{
    QJsonValue value;
    if (!readMember(object, key, path, required, QJsonValue::String, u"a string"_s, &value))
        return false;
    if (value.isUndefined())
        return true;
    *out = value.toString();
    return checkLength(*out, joinPath(path, key), maxLength.value_or(m_maxStringLength));
}

bool JsonReader::readNonEmptyString(const QJsonObject &object, const QString &key,
                                    const QString &path, QString *out,
                                    std::optional<qsizetype> maxLength)
{
    if (!readString(object, key, path, true, out, maxLength))
        return false;
    if (out->isEmpty())
        return fail(joinPath(path, key), u"must not be empty"_s);
    return true;
}

bool JsonReader::readBool(const QJsonObject &object, const QString &key, const QString &path,
                          bool required, bool *out)
{
    QJsonValue value;
    if (!readMember(object, key, path, required, QJsonValue::Bool, u"true or false"_s, &value))
        return false;
    if (!value.isUndefined())
        *out = value.toBool();
    return true;
}

bool JsonReader::readNumber(const QJsonObject &object, const QString &key, const QString &path,
                            bool required, double *out)
{
    QJsonValue value;
    if (!readMember(object, key, path, required, QJsonValue::Double, u"a number"_s, &value))
        return false;
    if (value.isUndefined())
        return true;
    if (!std::isfinite(value.toDouble()))
        return failType(joinPath(path, key), u"a number"_s, value);
    *out = value.toDouble();
    return true;
}

bool JsonReader::readInt(const QJsonObject &object, const QString &key, const QString &path,
                         int minimum, std::optional<int> defaultValue, int *out, int maximum)
{
    QString expected;
    if (maximum != std::numeric_limits<int>::max())
        expected = u"an integer from %1 to %2"_s.arg(minimum).arg(maximum);
    else if (minimum == 0)
        expected = u"a non-negative integer"_s;
    else if (minimum == 1)
        expected = u"a positive integer"_s;
    else
        expected = u"an integer of at least %1"_s.arg(minimum);
    QJsonValue member;
    if (!readMember(object, key, path, !defaultValue, QJsonValue::Double, expected, &member))
        return false;
    if (member.isUndefined()) {
        *out = *defaultValue;
        return true;
    }
    const double value = member.toDouble();
    if (!std::isfinite(value) || std::floor(value) != value || value < minimum || value > maximum)
        return failType(joinPath(path, key), expected, member);
    *out = static_cast<int>(value);
    return true;
}

bool JsonReader::readArray(const QJsonObject &object, const QString &key, const QString &path,
                           bool required, QJsonArray *out)
{
    QJsonValue value;
    if (!readMember(object, key, path, required, QJsonValue::Array, u"an array"_s, &value))
        return false;
    *out = value.toArray(); // empty when absent
    return true;
}

bool JsonReader::readObject(const QJsonObject &object, const QString &key, const QString &path,
                            QJsonObject *out)
{
    QJsonValue value;
    if (!readMember(object, key, path, false, QJsonValue::Object, u"an object"_s, &value))
        return false;
    *out = value.toObject(); // empty when absent
    return true;
}

bool JsonReader::elementObject(const QJsonValue &value, const QString &path, QJsonObject *out)
{
    if (!value.isObject())
        return failType(path, u"an object"_s, value);
    *out = value.toObject();
    return true;
}

// The text itself is not repeated: it is long by definition.
bool JsonReader::checkLength(const QString &text, const QString &field, qsizetype maxLength)
{
    if (text.size() <= maxLength)
        return true;
    return fail(field,
                u"must be at most %1 characters long, got %2"_s.arg(maxLength).arg(text.size()));
}

bool JsonReader::checkLabelName(const QString &name, const QString &field)
{
    static const QRegularExpression valid(u"^[A-Za-z_][A-Za-z0-9_]*$"_s);
    if (valid.match(name).hasMatch())
        return true;
    return fail(field, u"%1 is no label name ([A-Za-z_][A-Za-z0-9_]*)"_s.arg(describe(name)));
}

bool JsonReader::checkCount(qsizetype count, qsizetype maximum, const QString &field,
                            const QString &what)
{
    if (count <= maximum)
        return true;
    return fail(field, u"must list at most %1 %2, got %3"_s.arg(maximum).arg(what).arg(count));
}

bool JsonReader::checkKnownKeys(const QJsonObject &object, const QString &path,
                                const QStringList &known, const QString &what)
{
    for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
        if (!known.contains(it.key()))
            return fail(joinPath(path, it.key()),
                        u"unknown "_s + what + u" (expected "_s + known.join(u", "_s) + u')');
    }
    return true;
}

} // namespace Headroom
