package org.citylib.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.util.List;

import javax.servlet.ServletException;
import javax.servlet.annotation.WebServlet;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.parsers.SAXParserFactory;

import org.citylib.model.ImportBatch;
import org.w3c.dom.Document;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * Imports records from the regional union catalogue: MARCXML posted by staff, records pulled
 * from a partner library's OAI endpoint, and saved import batches from the desktop client.
 */
@WebServlet("/staff/import")
public class CatalogImportServlet extends HttpServlet {

    private static final List<String> PARTNER_HOSTS = List.of("oai.regional-libraries.org", "catalogue.university.example");

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        String kind = request.getParameter("kind");
        try {
            if ("marcxml".equals(kind)) {
                DocumentBuilderFactory dbf = DocumentBuilderFactory.newInstance();
                dbf.setNamespaceAware(true);
                DocumentBuilder builder = dbf.newDocumentBuilder();
                Document doc = builder.parse(request.getInputStream()); // vuln: xxe
                response.getWriter().println(doc.getDocumentElement().getChildNodes().getLength() + " records");
            } else if ("dublin-core".equals(kind)) {
                SAXParserFactory spf = SAXParserFactory.newInstance();
                spf.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
                spf.newSAXParser().parse(request.getInputStream(), new DefaultHandler()); // safe: xxe
            } else if ("batch".equals(kind)) {
                try (ObjectInputStream in = new ObjectInputStream(request.getInputStream())) { // vuln: insecure-deserialization [batch]
                    ImportBatch batch = (ImportBatch) in.readObject(); // vuln: insecure-deserialization [batch]
                    response.getWriter().println(batch.size() + " records queued");
                }
            }
        } catch (ParserConfigurationException | SAXException | ClassNotFoundException e) {
            response.sendError(HttpServletResponse.SC_BAD_REQUEST, "unreadable import");
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String endpoint = request.getParameter("endpoint");
        String preview = request.getParameter("preview");
        if (preview != null) {
            // staff paste any URL to preview a record before importing it
            HttpURLConnection conn = (HttpURLConnection) new URL(preview).openConnection(); // vuln: ssrf
            try (InputStream in = conn.getInputStream()) {
                in.transferTo(response.getOutputStream());
            }
            return;
        }
        URI uri = URI.create(endpoint);
        if (!"https".equals(uri.getScheme()) || !PARTNER_HOSTS.contains(uri.getHost())) {
            response.sendError(HttpServletResponse.SC_BAD_REQUEST, "unknown partner");
            return;
        }
        try (InputStream in = uri.toURL().openStream()) { // safe: ssrf
            parseHarvest(in);
        } catch (ParserConfigurationException | SAXException e) {
            response.sendError(HttpServletResponse.SC_BAD_GATEWAY);
        }
    }

    private static void parseHarvest(InputStream in) throws ParserConfigurationException, SAXException, IOException {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setExpandEntityReferences(false);
        factory.newDocumentBuilder().parse(in); // safe: xxe
    }

    /** Default subject headings shipped inside the war. */
    static Object loadDefaultHeadings() throws IOException, ClassNotFoundException {
        try (ObjectInputStream in = new ObjectInputStream(CatalogImportServlet.class.getResourceAsStream("/headings.ser"))) { // safe: insecure-deserialization [headings]
            return in.readObject(); // safe: insecure-deserialization [headings]
        }
    }
}
