// SPDX-FileCopyrightText: 2026 The Headroom authors
// SPDX-License-Identifier: GPL-3.0-or-later

#include "document/dashboardtrust.h"

#include "core/conninfo.h"
#include "documentlogging.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUrl>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// "${name}" and nothing else: the name, else empty.
QString wholeVariable(const QJsonValue &value)
{
    static const QRegularExpression pattern(u"^\\$\\{([A-Za-z_][A-Za-z0-9_]*)\\}$"_s);
    const QRegularExpressionMatch match = pattern.match(value.toString());
    return match.hasMatch() ? match.captured(1) : QString();
}

// The file's own value for a variable: its default or one of the options it offers
// (the variable bar's list is the file's text too, only a typed value is the user's).
bool isFilesValue(const Dashboard &dashboard, const QString &name, const QString &value)
{
    for (const DashboardVariable &variable : dashboard.variables) {
        if (variable.name == name)
            return value == variable.defaultValue || variable.options.contains(value);
    }
    return false;
}

bool isLocal(const QString &value)
{
    const QString trimmed = value.trimmed();
    return trimmed.isEmpty() || trimmed == "local"_L1;
}

// "sql" members of objects at any depth, or the value itself when it is a string.
void collectSql(const QJsonValue &value, const QString &path,
                QList<std::pair<QString, QString>> *out)
{
    if (value.isString()) {
        out->append({ path, value.toString() });
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i)
            collectSql(array.at(i), u"%1[%2]"_s.arg(path).arg(i), out);
    } else if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
            if (it.key() == "sql"_L1 && it.value().isString())
                out->append({ path + u".sql"_s, it.value().toString() });
            else if (it.value().isArray() || it.value().isObject())
                collectSql(it.value(), path + u'.' + it.key(), out);
        }
    }
}

} // namespace

QStringList TrustRequest::sources() const
{
    QStringList ids;
    for (const TrustItem &item : items) {
        if (!ids.contains(item.sourceId))
            ids.append(item.sourceId);
    }
    return ids;
}

QString TrustRequest::fingerprint() const
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const TrustItem &item : items) {
        // Length-prefixed fields, so that no two different lists hash alike.
        for (const QString &field :
             { item.sourceId, item.option,
               item.kind == TrustItem::Kind::Sql ? u"sql"_s : u"target"_s, item.value }) {
            const QByteArray bytes = field.toUtf8();
            hash.addData(QByteArray(QByteArray::number(bytes.size()) + ':'));
            hash.addData(bytes);
        }
    }
    return QString::fromLatin1(hash.result().toHex());
}

namespace {
// The prompt and a headless run's complaint may end up in a log: a password the file
// carries (a conninfo's password=, a URL's user:secret@) is shown as ***.
QString maskedTarget(const QString &value)
{
    const QUrl url(value, QUrl::StrictMode);
    if (url.isValid() && !url.scheme().isEmpty() && !url.password().isEmpty()
        && !value.startsWith("postgres"_L1, Qt::CaseInsensitive)) {
        QUrl masked = url;
        masked.setPassword(u"***"_s);
        return masked.toString();
    }
    return redactConninfo(value);
}
} // namespace

QStringList TrustRequest::describe() const
{
    QStringList lines;
    for (const TrustItem &item : items) {
        lines << (item.kind == TrustItem::Kind::Target
                      ? u"source \"%1\" connects to %2"_s.arg(item.sourceId,
                                                              maskedTarget(item.value))
                      : u"source \"%1\" runs SQL (%2): %3"_s.arg(item.sourceId, item.option,
                                                                 item.value.simplified()));
    }
    return lines;
}

QStringList userSuppliedOptions(const Dashboard &dashboard, const DashboardSource &source,
                                const QMap<QString, QString> &values)
{
    QStringList options;
    for (auto it = source.config.constBegin(); it != source.config.constEnd(); ++it) {
        const QString name = wholeVariable(it.value());
        if (!name.isEmpty() && values.contains(name)
            && !isFilesValue(dashboard, name, values.value(name)))
            options << it.key();
    }
    return options;
}

TrustRequest trustRequest(const Dashboard &dashboard, const QList<CollectorPluginInfo> &plugins,
                          const QMap<QString, QString> &values)
{
    TrustRequest request;
    for (const DashboardSource &source : dashboard.sources) {
        const auto plugin = std::find_if(plugins.cbegin(), plugins.cend(), [&](const auto &info) {
            return info.id == source.plugin;
        });
        if (plugin == plugins.cend())
            continue; // the source cannot start anyway
        const QJsonObject properties = plugin->configSchema.value("properties"_L1).toObject();
        const QStringList own = userSuppliedOptions(dashboard, source, values);
        QString unknown;
        const QJsonObject config = substituteVariables(source.config, values, &unknown);
        for (auto it = config.constBegin(); it != config.constEnd(); ++it) {
            const QString trust
                = properties.value(it.key()).toObject().value("trust"_L1).toString();
            if (trust.isEmpty() || own.contains(it.key()))
                continue;
            if (trust == "target"_L1) {
                if (!isLocal(it.value().toString()))
                    request.items.append(
                        { source.id, it.key(), TrustItem::Kind::Target, it.value().toString() });
            } else if (trust == "sql"_L1) {
                QList<std::pair<QString, QString>> sql;
                collectSql(it.value(), it.key(), &sql);
                for (const auto &[path, text] : std::as_const(sql))
                    request.items.append({ source.id, path, TrustItem::Kind::Sql, text });
            }
        }
    }
    return request;
}

TrustCheck checkDashboardTrust(const Dashboard &dashboard, const QString &path,
                               const QList<CollectorPluginInfo> &plugins,
                               const QMap<QString, QString> &values,
                               const DashboardTrustStore &store)
{
    TrustCheck check;
    check.request = trustRequest(dashboard, plugins, values);
    check.trusted = check.request.isEmpty() || isShippedDashboard(path)
        || store.isTrusted(check.request.fingerprint());
    return check;
}

QString DashboardTrustStore::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericStateLocation)
        + "/headroom/trusted-dashboards.json"_L1;
}

DashboardTrustStore::DashboardTrustStore(QString path)
    : m_path(std::move(path))
{
}

bool DashboardTrustStore::read(QJsonObject *entries, QString *error) const
{
    QFile file(m_path);
    if (!file.exists())
        return true;
    if (!file.open(QIODevice::ReadOnly)) {
        *error = u"%1: %2"_s.arg(m_path, file.errorString());
        return false;
    }
    // Only the user writes this file; still, a damaged one is refused, not guessed at.
    constexpr qint64 MaxBytes = 16 * 1024 * 1024;
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.read(MaxBytes), &parseError);
    const QJsonObject root = document.object();
    if (parseError.error != QJsonParseError::NoError || root.value("version"_L1).toInt() != 1
        || !root.value("trusted"_L1).isObject()) {
        *error = u"%1: not a list of trusted dashboards Headroom can read (left as it is)"_s.arg(
            m_path);
        return false;
    }
    *entries = root.value("trusted"_L1).toObject();
    return true;
}

bool DashboardTrustStore::isTrusted(const QString &fingerprint) const
{
    QJsonObject entries;
    QString error;
    if (!read(&entries, &error)) {
        qCWarning(lcDashboard).noquote() << error;
        return false;
    }
    return entries.contains(fingerprint);
}

bool DashboardTrustStore::trust(const QString &fingerprint, const QString &file, QString *error)
{
    QJsonObject entries;
    if (!read(&entries, error))
        return false;
    entries.insert(
        fingerprint,
        QJsonObject { { u"file"_s, QFileInfo(file).absoluteFilePath() },
                      { u"trustedAt"_s, QDateTime::currentDateTimeUtc().toString(Qt::ISODate) } });
    const QString dir = QFileInfo(m_path).absolutePath();
    if (!QDir().mkpath(dir)) {
        *error = u"cannot create %1"_s.arg(dir);
        return false;
    }
    QFile::setPermissions(dir,
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    QSaveFile out(m_path);
    if (!out.open(QIODevice::WriteOnly)) {
        *error = u"%1: %2"_s.arg(m_path, out.errorString());
        return false;
    }
    out.write(QJsonDocument(QJsonObject { { u"version"_s, 1 }, { u"trusted"_s, entries } })
                  .toJson(QJsonDocument::Indented));
    if (!out.commit()) {
        *error = u"%1: %2"_s.arg(m_path, out.errorString());
        return false;
    }
    // Nobody else needs to know which files and servers this user trusts.
    QFile::setPermissions(m_path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return true;
}

} // namespace Headroom
