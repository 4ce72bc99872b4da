// Weka's own numbers at full precision, for benchmarks/weka_agreement.py (its docstring says how it is run).
//
//   java -cp weka.jar benchmarks/WekaProbe.java TRAIN.arff TEST.arff "CLASSNAME OPTIONS" ["CLASSNAME OPTIONS" ...]
//   java -cp weka.jar benchmarks/WekaProbe.java --defaults CLASSNAME [CLASSNAME ...]
//
// Java 11+'s source launcher compiles this file in memory (a JDK is needed, not only a JRE). Per classifier spec it
// builds the classifier on TRAIN with Weka's own code and prints, one fact a line (doubles as Double.toString, which
// reads back exactly):
//   SPEC <the spec>            OPTIONS <getOptions() after building, joined as Weka quotes them>
//   DIST <test row> <p_0> ... <p_K-1>          (distributionForInstance)
//   PARENTS <node> <parent> ...                (BayesNet: each node's parent set, Weka's node indices)
//   PAR <row> <class> <value>                  (Logistic: m_Par, original scale, row 0 = intercept)
//   END
// --defaults prints VERSION (weka.core.Version.VERSION), then OPTIONS of a classifier built by its constructor alone: Weka's defaults as Weka prints them.

import java.io.BufferedReader;
import java.io.FileReader;
import java.lang.reflect.Field;

import weka.classifiers.Classifier;
import weka.classifiers.bayes.BayesNet;
import weka.classifiers.functions.Logistic;
import weka.core.Instances;
import weka.core.OptionHandler;
import weka.core.Utils;

public class WekaProbe {
    static Instances read(String path) throws Exception {
        BufferedReader reader = new BufferedReader(new FileReader(path));
        Instances data = new Instances(reader);
        reader.close();
        data.setClassIndex(data.numAttributes() - 1);
        return data;
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("--defaults")) {
            System.out.println("VERSION " + weka.core.Version.VERSION);
            for (int i = 1; i < args.length; i++) {
                Classifier c = Classifier.forName(args[i], new String[0]);
                System.out.println("SPEC " + args[i]);
                System.out.println("OPTIONS " + Utils.joinOptions(((OptionHandler) c).getOptions()));
                System.out.println("END");
            }
            return;
        }
        Instances train = read(args[0]);
        Instances test = read(args[1]);
        for (int s = 2; s < args.length; s++) {
            String[] options = Utils.splitOptions(args[s]);
            String name = options[0];
            options[0] = "";
            Classifier c = Classifier.forName(name, options);
            c.buildClassifier(train);
            System.out.println("SPEC " + args[s]);
            System.out.println("OPTIONS " + Utils.joinOptions(((OptionHandler) c).getOptions()));
            for (int i = 0; i < test.numInstances(); i++) {
                double[] p = c.distributionForInstance(test.instance(i));
                StringBuilder line = new StringBuilder("DIST " + i);
                for (double v : p) line.append(' ').append(Double.toString(v));
                System.out.println(line);
            }
            if (c instanceof BayesNet) {
                BayesNet net = (BayesNet) c;
                for (int node = 0; node < net.getNrOfNodes(); node++) {
                    StringBuilder line = new StringBuilder("PARENTS " + node);
                    for (int j = 0; j < net.getNrOfParents(node); j++) line.append(' ').append(net.getParent(node, j));
                    System.out.println(line);
                }
            }
            if (c instanceof Logistic) {
                Field field = Logistic.class.getDeclaredField("m_Par");
                field.setAccessible(true);
                double[][] par = (double[][]) field.get(c);
                for (int j = 0; j < par.length; j++)
                    for (int k = 0; k < par[j].length; k++)
                        System.out.println("PAR " + j + " " + k + " " + Double.toString(par[j][k]));
            }
            System.out.println("END");
        }
    }
}
