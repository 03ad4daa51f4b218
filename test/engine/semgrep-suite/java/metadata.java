import javax.xml.parsers.DocumentBuilderFactory;

public class Xml {
    Object parse() throws Exception {
        // ruleid: java-xxe-document-builder
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        if (factory == null) {
            // ruleid: java-system-exit
            System.exit(3);
        }
        return factory.newDocumentBuilder();
    }
}
