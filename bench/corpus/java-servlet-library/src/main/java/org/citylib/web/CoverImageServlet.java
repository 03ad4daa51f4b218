package org.citylib.web;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.regex.Pattern;

import javax.servlet.ServletException;
import javax.servlet.annotation.MultipartConfig;
import javax.servlet.annotation.WebServlet;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import javax.servlet.http.Part;

import org.citylib.util.Params;

/** Book cover images: served from disk, uploaded by staff, scans of the inside flap. */
@WebServlet("/covers/*")
@MultipartConfig(maxFileSize = 5 * 1024 * 1024)
public class CoverImageServlet extends HttpServlet {

    private static final String COVER_DIR = "/var/lib/citylib/covers";
    private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}\\.(jpg|png)");

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String name = request.getPathInfo() == null ? "" : request.getPathInfo().substring(1);
        if (!FILE_NAME.matcher(name).matches()) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
            return;
        }
        response.setContentType(name.endsWith(".png") ? "image/png" : "image/jpeg");
        Files.copy(Paths.get(COVER_DIR, name), response.getOutputStream()); // safe: path-traversal
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
        String size = Params.get(request, "size");
        Part part = request.getPart("image");
        try (InputStream in = part.getInputStream()) {
            Files.copy(in, new File(COVER_DIR + File.separator + size, part.getSubmittedFileName()).toPath(), StandardCopyOption.REPLACE_EXISTING); // vuln: path-traversal
        }
        response.setStatus(HttpServletResponse.SC_CREATED);
    }

    @Override
    protected void doPut(HttpServletRequest request, HttpServletResponse response) throws IOException {
        // flap scans are replaced in place; the name is the book's barcode plus a suffix
        String scan = request.getParameter("scan");
        Path base = Paths.get(COVER_DIR, "flaps").toRealPath();
        Path target = base.resolve(scan).normalize();
        if (!target.startsWith(base)) {
            response.sendError(HttpServletResponse.SC_BAD_REQUEST, "bad scan name");
            return;
        }
        Files.copy(request.getInputStream(), target, StandardCopyOption.REPLACE_EXISTING); // safe: path-traversal
    }

    /** Legacy thumbnail URL still linked from the old OPAC: /covers/thumb?file=... */
    static final class LegacyThumbnails {
        static void write(HttpServletRequest request, HttpServletResponse response) throws IOException {
            String file = request.getParameter("file");
            try (InputStream in = new FileInputStream(COVER_DIR + "/thumbs/" + file)) { // vuln: path-traversal
                in.transferTo(response.getOutputStream());
            }
        }

        static void writeDefault(HttpServletResponse response) throws IOException {
            String fallback = "placeholder.png";
            try (InputStream in = new FileInputStream(new File(COVER_DIR + "/thumbs", fallback))) { // safe: path-traversal
                in.transferTo(response.getOutputStream());
            }
        }
    }
}
