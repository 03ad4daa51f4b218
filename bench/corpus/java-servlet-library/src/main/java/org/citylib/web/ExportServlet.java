package org.citylib.web;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import javax.servlet.annotation.WebServlet;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.citylib.util.AppConfig;
import org.citylib.util.Params;

/** Staff exports: MARC dumps, overdue lists for the printer, the nightly archive. */
@WebServlet("/staff/export")
public class ExportServlet extends HttpServlet {

    private static final String EXPORT_DIR = "/var/lib/citylib/exports";
    private static final String PRINTER = "branch-laser-1";

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String format = Params.get(request, "format");
        String branch = Params.get(request, "branch");
        String title = request.getParameter("title");

        String tool;
        switch (format) {
            case "marc":
                tool = "/usr/local/bin/yaz-marcdump";
                break;
            case "csv":
                tool = "/usr/local/bin/marc2csv";
                break;
            default:
                tool = "/bin/cat";
        }
        Process dump = new ProcessBuilder(tool, EXPORT_DIR + "/catalogue.mrc").redirectErrorStream(true).start(); // safe: command-injection
        dump.getInputStream().transferTo(response.getOutputStream());

        String[] env = { "LANG=C.UTF-8", "JOB_TITLE=" + title };
        Runtime.getRuntime().exec(new String[] { "/usr/bin/lpr", "-P", PRINTER, EXPORT_DIR + "/overdue.ps" }, env); // safe: command-injection
        Runtime.getRuntime().exec("/usr/local/bin/archive-branch " + branch, env, new File(EXPORT_DIR)); // vuln: command-injection

        new Archiver(AppConfig.get("archive.host", "backup.citylib.local")).sync(branch);
    }

    /** Pushes a branch's export folder to the archive host. */
    static class Archiver {
        private final String host;

        Archiver(String host) {
            this.host = host;
        }

        void sync(String branch) throws IOException {
            List<String> command = new ArrayList<>();
            command.add("/bin/sh");
            command.add("-c");
            command.add("rsync -a " + EXPORT_DIR + "/" + branch + "/ " + host + ":/srv/archive/");
            new ProcessBuilder(command).inheritIO().start(); // vuln: command-injection
        }
    }
}
