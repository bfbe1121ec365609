#include "remotereadbatch.h"

#include <QRandomGenerator>
#include <QSet>

namespace Headroom {

using namespace Qt::StringLiterals;

namespace {

// Single quotes keep every byte as it is, except the quote itself.
QByteArray shellQuoted(const QString &text)
{
    QByteArray quoted = text.toUtf8();
    quoted.replace('\'', "'\\''");
    return '\'' + quoted + '\'';
}

QByteArray quotedList(const QStringList &items)
{
    QByteArray list;
    for (const QString &item : items)
        list += ' ' + shellQuoted(item);
    return list;
}

struct ToolErrors
{
    QHash<QString, QString> cat; // path -> reason
    QHash<QString, QString> ls;
};

// "cat: /proc/x: No such file or directory", "ls: cannot access '/x': No such file or
// directory" (GNU and busybox wording): each tool's reasons by path.
ToolErrors toolErrors(const QByteArray &stderrText)
{
    ToolErrors errors;
    for (const QByteArray &line : stderrText.split('\n')) {
        const QString text = QString::fromUtf8(line);
        const qsizetype toolEnd = text.indexOf(": "_L1);
        const qsizetype pathEnd = text.lastIndexOf(": "_L1);
        if (toolEnd < 0 || pathEnd <= toolEnd)
            continue;
        QString path = text.mid(toolEnd + 2, pathEnd - toolEnd - 2);
        // Quoted names: "ls: cannot access '/x': ...", busybox "cat: can't open '/x': ...".
        if (path.endsWith(u'\'') && path.size() > 1) {
            const qsizetype quote = path.lastIndexOf(u'\'', path.size() - 2);
            if (quote >= 0)
                path = path.mid(quote + 1, path.size() - quote - 2);
        }
        const QString reason = text.mid(pathEnd + 2).trimmed();
        if (reason.isEmpty())
            continue; // "cannot be read" says as much
        (text.left(toolEnd) == "ls"_L1 ? errors.ls : errors.cat).insert(path, reason);
    }
    return errors;
}

} // namespace

QByteArray newBatchBoundary()
{
    quint32 words[4];
    QRandomGenerator::system()->fillRange(words);
    return QByteArray(reinterpret_cast<const char *>(words), sizeof(words)).toHex();
}

QByteArray remoteReadScript(const RemoteReadBatch &batch, const QByteArray &boundary)
{
    // LC_ALL=C: error reasons in English and ls in byte order. The newline before each
    // header keeps the header on its own line after a file without a final newline;
    // the parser takes that one newline back off.
    QByteArray command = "LC_ALL=C; export LC_ALL; B=" + boundary + ";";
    if (!batch.files.isEmpty()) {
        command += " for f in" + quotedList(batch.files)
            + "; do printf '\\n%s F %s\\n' \"$B\" \"$f\"; cat -- \"$f\" || "
              "printf '\\n%s E %s\\n' \"$B\" \"$f\"; done;";
    }
    if (!batch.directories.isEmpty()) {
        command += " for d in" + quotedList(batch.directories)
            + "; do printf '\\n%s D %s\\n' \"$B\" \"$d\"; ls -1A -- \"$d\" || "
              "printf '\\n%s E %s\\n' \"$B\" \"$d\"; done;";
    }
    command += " printf '\\n%s END\\n' \"$B\"";
    return command;
}

RemoteReadReply parseRemoteReadOutput(const RemoteReadBatch &batch, const QByteArray &output,
                                      const QByteArray &stderrText, const QByteArray &boundary)
{
    RemoteReadReply reply;
    const QSet<QString> askedFiles(batch.files.cbegin(), batch.files.cend());
    const QSet<QString> askedDirectories(batch.directories.cbegin(), batch.directories.cend());
    QHash<QString, QByteArray> fileData;
    QHash<QString, QByteArray> directoryData;
    QSet<QString> failedFiles;
    QSet<QString> failedDirectories;
    QByteArray lastKind; // an E marker belongs to the F or D item before it

    const QByteArray marker = '\n' + boundary + ' ';
    qsizetype at = output.indexOf(marker);
    while (at >= 0) {
        const qsizetype headerStart = at + marker.size();
        const qsizetype headerEnd = output.indexOf('\n', headerStart);
        if (headerEnd < 0)
            break; // cut off inside a header
        const QByteArray header = output.mid(headerStart, headerEnd - headerStart);
        const qsizetype next = output.indexOf(marker, headerEnd);
        if (header == "END") {
            reply.complete = true;
            break;
        }
        const QByteArray kind = header.left(1);
        const QString path = QString::fromUtf8(header.mid(2));
        // Until the next header, or to the end of what arrived (an item cut short is
        // not trusted: it only counts when a header follows it).
        if (next < 0)
            break;
        const QByteArray body = output.mid(headerEnd + 1, next - headerEnd - 1);
        if (kind == "F" && askedFiles.contains(path))
            fileData.insert(path, body);
        else if (kind == "D" && askedDirectories.contains(path))
            directoryData.insert(path, body);
        else if (kind == "E")
            (lastKind == "D" ? failedDirectories : failedFiles).insert(path);
        lastKind = kind;
        at = next;
    }

    const ToolErrors reasons = toolErrors(stderrText);
    const auto reasonFor = [&](const QString &path, const QSet<QString> &failed,
                               const QHash<QString, QString> &toolReasons) {
        if (failed.contains(path))
            return toolReasons.value(path, u"cannot be read"_s);
        if (reply.complete)
            return u"missing from the server's answer"_s;
        // The shell's own complaint, if any, says why ("sh: cat: not found").
        const QByteArray firstError = stderrText.left(stderrText.indexOf('\n')).trimmed();
        return firstError.isEmpty()
            ? u"the server's answer stopped early"_s
            : u"the server's answer stopped early: "_s + QString::fromUtf8(firstError.left(200));
    };
    for (const QString &path : batch.files) {
        const auto found = fileData.constFind(path);
        if (found != fileData.cend() && !failedFiles.contains(path))
            reply.files.contents.insert(path, *found);
        else
            reply.files.errors.insert(path, reasonFor(path, failedFiles, reasons.cat));
    }
    for (const QString &path : batch.directories) {
        DirectoryListing listing;
        const auto found = directoryData.constFind(path);
        if (found != directoryData.cend() && !failedDirectories.contains(path)) {
            for (const QByteArray &name : found->split('\n')) {
                if (!name.isEmpty())
                    listing.entries << QString::fromUtf8(name);
            }
        } else {
            listing.error = reasonFor(path, failedDirectories, reasons.ls);
        }
        reply.directories.insert(path, listing);
    }
    return reply;
}

} // namespace Headroom
